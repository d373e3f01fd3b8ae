// A kernel whose shared memory lives partly in a device function it calls.
#include <cuda_runtime.h>

__device__ float stage_a(const float* src) {
  __shared__ float buffer_a[8192];
  buffer_a[threadIdx.x] = src[threadIdx.x];
  __syncthreads();
  return buffer_a[(threadIdx.x + 1) % 8192];
}

__device__ float stage_b(const float* src) {
  __shared__ float buffer_b[10240];
  buffer_b[threadIdx.x] = src[threadIdx.x] * 2.0f;
  __syncthreads();
  return buffer_b[(threadIdx.x + 3) % 10240];
}

__global__ void pipeline(const float* src, float* dst) {
  dst[threadIdx.x] = stage_a(src) + stage_b(src);
}

__global__ void only_a(const float* src, float* dst) { dst[threadIdx.x] = stage_a(src); }
