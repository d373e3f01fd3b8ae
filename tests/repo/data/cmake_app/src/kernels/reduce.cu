#include <cuda_runtime.h>

#include "launch_config.cuh"
#include "vecops.h"

// Block-wide sum in shared memory, then one atomic per block (no warp-size assumptions).
__global__ void SumKernel(const float* x, int n, float* total) {
  __shared__ float partial[kThreadsPerBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

int vecops_sum(const float* x, int n, float* result) {
  float *dx = nullptr, *dtotal = nullptr;
  VECOPS_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  VECOPS_CHECK(cudaMalloc(&dtotal, sizeof(float)));
  VECOPS_CHECK(cudaMemset(dtotal, 0, sizeof(float)));
  VECOPS_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  SumKernel<<<BlocksFor(n), kThreadsPerBlock>>>(dx, n, dtotal);
  VECOPS_CHECK(cudaDeviceSynchronize());
  VECOPS_CHECK(cudaMemcpy(result, dtotal, sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dx);
  cudaFree(dtotal);
  return 0;
}
