// NVRTC table: program handle, compile, code retrieval and result codes; an API hipRTC lacks stays, with a
// located warning.
// CHECK: #include <hiprtc.h>
#include <nvrtc.h>
int main() {
  // CHECK: hiprtcProgram program;
  nvrtcProgram program;
  // CHECK: hiprtcResult result = hiprtcCreateProgram(&program, "__global__ void k() {}", "k.cu", 0, nullptr, nullptr);
  nvrtcResult result = nvrtcCreateProgram(&program, "__global__ void k() {}", "k.cu", 0, nullptr, nullptr);
  // CHECK: hiprtcCompileProgram(program, 0, nullptr);
  nvrtcCompileProgram(program, 0, nullptr);
  size_t size = 0;
  // CHECK: hiprtcGetCodeSize(program, &size);
  nvrtcGetPTXSize(program, &size);
  int architectures = 0;
  // STDERR: rtc.cu:[[@LINE+2]]:3: warning: 'nvrtcGetNumSupportedArchs' is unsupported in 'HIP'. [TR001]
  // CHECK: nvrtcGetNumSupportedArchs(&architectures);
  nvrtcGetNumSupportedArchs(&architectures);
  // CHECK: hiprtcDestroyProgram(&program);
  nvrtcDestroyProgram(&program);
  // CHECK: return result == HIPRTC_SUCCESS ? 0 : 1;
  return result == NVRTC_SUCCESS ? 0 : 1;
}
