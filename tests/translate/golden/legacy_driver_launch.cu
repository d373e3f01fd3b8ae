// The legacy driver launch API (cuParamSet*, cuFuncSetBlockShape, cuFuncSetSharedSize, cuLaunch, cuLaunchGrid,
// cuLaunchGridAsync; deprecated since CUDA 9.2, in no HIP release) was left as it was (issue 29: undeclared for
// gfx942). The translator writes inline host definitions that keep CUDA's per-function state and launch with
// hipModuleLaunchKernel through the parameter-buffer form; the calls stay. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: legacy_driver_launch.cu:[[@LINE+22]]:14: note: HIP has no legacy launch API{{.*}}hipModuleLaunchKernel{{.*}}[TR013]
// STDERR-NOT: [TR001]
// JSON: "unsupported": 0
#include <cuda.h>
#include <cstdio>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #include <map>
// CHECK: #if !defined(HIPFORGE_LEGACY_LAUNCH_SHIM) && !defined(__HIP_PLATFORM_NVIDIA__)
// CHECK: inline hipError_t cuLaunchGridAsync(hipFunction_t f, int width, int height, hipStream_t stream) {{.*}}hipModuleLaunchKernel(f, width, height, 1, l.block[0], l.block[1], l.block[2], l.shared, stream, nullptr, extra);
// CHECK: #endif
#define ALIGN_UP(offset, alignment) (offset) = ((offset) + (alignment) - 1) & ~((alignment) - 1)

static bool Check(CUresult status, const char* what) {
  if (status != CUDA_SUCCESS) std::fprintf(stderr, "%s failed\n", what);
  return status == CUDA_SUCCESS;
}

// CHECK: bool Scale(hipFunction_t scale, hipDeviceptr_t data, int n, float factor, hipStream_t stream) {
bool Scale(CUfunction scale, CUdeviceptr data, int n, float factor, CUstream stream) {
  int offset = 0;
  ALIGN_UP(offset, __alignof(data));
  // CHECK: if (!Check(cuParamSetv(scale, offset, &data, sizeof(data)), "cuParamSetv")) return false;
  if (!Check(cuParamSetv(scale, offset, &data, sizeof(data)), "cuParamSetv")) return false;
  offset += sizeof(data);
  ALIGN_UP(offset, __alignof(n));
  cuParamSeti(scale, offset, n);
  offset += sizeof(n);
  ALIGN_UP(offset, __alignof(factor));
  cuParamSetf(scale, offset, factor);
  offset += sizeof(factor);
  cuParamSetSize(scale, offset);
  cuFuncSetBlockShape(scale, 256, 1, 1);
  cuFuncSetSharedSize(scale, 256 * sizeof(float));
  // CHECK: if (!Check(cuLaunchGridAsync(scale, (n + 255) / 256, 1, stream), "cuLaunchGridAsync")) return false;
  if (!Check(cuLaunchGridAsync(scale, (n + 255) / 256, 1, stream), "cuLaunchGridAsync")) return false;
  return Check(cuLaunchGrid(scale, 1, 1), "cuLaunchGrid") && Check(cuLaunch(scale), "cuLaunch");
}
