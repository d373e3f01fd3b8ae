// A program that defines its own atomicAdd on __half2 (older CUDA code did, for devices without the
// instruction) gets no second definition from the translator: the shim stays out, the program's own one is used.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// CHECK-NOT: HIPFORGE_HALF_ATOMIC_ADD_SHIM
// CHECK: __device__ __half2 atomicAdd(__half2* address, __half2 value) {
#include <cuda_fp16.h>
__device__ __half2 atomicAdd(__half2* address, __half2 value) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    __half2 current = *reinterpret_cast<__half2*>(&assumed);
    __half2 sum = __hadd2(current, value);
    old = atomicCAS(word, assumed, *reinterpret_cast<unsigned int*>(&sum));
  } while (old != assumed);
  return *reinterpret_cast<__half2*>(&old);
}
__global__ void Accumulate(__half2* pairs, const __half2* values) { atomicAdd(&pairs[threadIdx.x % 8], values[threadIdx.x]); }
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
