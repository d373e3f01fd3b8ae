// HIP takes a kernel as `const void*` in hipFuncSetAttribute (argument_rewrites.cc): the cast is applied where the
// call is spelled, also inside a #define body whose parameter is the kernel (ggml's CUDA_SET_SHARED_MEMORY_LIMIT,
// the call nested in another macro's argument), so every expansion gets it. The output must compile for gfx942
// with HIP 6.4 (checked where that toolchain is present).
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
#include <cuda_runtime.h>
#include <cstdio>
// Must stay as it is (renamed only): the error check the call is nested in.
// CHECK: #define CHECK(err) do { hipError_t e_ = (err); if (e_ != hipSuccess) std::printf("%s\n", hipGetErrorString(e_)); } while (0)
#define CHECK(err) do { cudaError_t e_ = (err); if (e_ != cudaSuccess) std::printf("%s\n", cudaGetErrorString(e_)); } while (0)
// CHECK: do { CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), hipFuncAttributeMaxDynamicSharedMemorySize, nbytes)); } while (0)
#define SET_SHARED_MEMORY_LIMIT(kernel, nbytes) \
  do { CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, nbytes)); } while (0)
// CHECK: #define SET_LIMIT_DIRECT(kernel, nbytes) hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), hipFuncAttributeMaxDynamicSharedMemorySize, nbytes)
#define SET_LIMIT_DIRECT(kernel, nbytes) cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, nbytes)
template <int N> __global__ void k(float* x) { extern __shared__ float s[]; s[threadIdx.x] = x[N]; x[0] = s[0]; }
__global__ void plain(float* x) { x[0] = 1; }
void set(int n) {
  // The expansions themselves stay: the cast is in the body.
  // CHECK: SET_SHARED_MEMORY_LIMIT((k<4>), n);
  SET_SHARED_MEMORY_LIMIT((k<4>), n);
  // CHECK: SET_SHARED_MEMORY_LIMIT(k<8>, n);
  SET_SHARED_MEMORY_LIMIT(k<8>, n);
  // CHECK: SET_LIMIT_DIRECT(plain, n);
  SET_LIMIT_DIRECT(plain, n);
  // CHECK: CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(plain), hipFuncAttributeMaxDynamicSharedMemorySize, n));
  CHECK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, n));
}
