// Loading a precompiled module with the driver API.
#include <cuda.h>
#include <nvrtc.h>
#include <string>
#include <vector>

CUfunction load_kernel(const char* path, const char* name, CUcontext* ctx_out) {
  CUdevice dev;
  CUcontext ctx;
  CUmodule module;
  CUfunction fn;
  cuInit(0);
  cuDeviceGet(&dev, 0);
  cuCtxCreate(&ctx, 0, dev);
  cuModuleLoad(&module, path);
  cuModuleGetFunction(&fn, module, name);
  *ctx_out = ctx;
  return fn;
}

std::string compile_to_ptx(const char* source) {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, source, "k.cu", 0, nullptr, nullptr);
  const char* opts[] = {"--gpu-architecture=compute_80", "-default-device"};
  nvrtcCompileProgram(prog, 2, opts);
  size_t size = 0;
  nvrtcGetPTXSize(prog, &size);
  std::string ptx(size, '\0');
  nvrtcGetPTX(prog, &ptx[0]);
  nvrtcDestroyProgram(&prog);
  return ptx;
}
