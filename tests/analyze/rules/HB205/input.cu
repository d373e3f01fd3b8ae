// HB205 golden input: shared memory beyond 64 KiB.
#include <cuda_runtime.h>

__global__ void big_tile(float* out) {
  __shared__ float tile[128][160];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void dynamic_tile(float* out) {
  extern __shared__ float buffer[];
  out[threadIdx.x] = buffer[threadIdx.x];
}

int main() {
  float* out = nullptr;
  cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024);
  dynamic_tile<<<1, 256, 98304>>>(out);
  // Negatives: exactly 64 KiB and small launches.
  dynamic_tile<<<1, 256, 65536>>>(out);
  cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
  big_tile<<<1, dim3(32, 32)>>>(out);
  return 0;
}

__global__ void fits(float* out) {
  __shared__ float tile[128][128];
  out[threadIdx.x] = tile[threadIdx.x][0];
}
