// A project header that uses only CUDA names HIP spells the same (threadIdx, __syncthreads) still needs the HIP
// runtime include, which nvcc adds implicitly and clang's HIP mode does not.
// COMPILE: --offload-arch=gfx90a
// CHECK: #pragma once
// CHECK-NEXT: #include <hip/hip_runtime.h>
#pragma once
__device__ inline void stage(float* shared, const float* in) {
  shared[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
