#include <cuda_runtime.h>

#include "launch_config.cuh"
#include "vecops.h"

__global__ void ScaleKernel(float* x, float factor, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] *= factor;
}

int vecops_scale(float* x, float factor, int n) {
  float* dx = nullptr;
  VECOPS_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  VECOPS_CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  VECOPS_CHECK(cudaStreamCreate(&stream));
  ScaleKernel<<<BlocksFor(n), kThreadsPerBlock, 0, stream>>>(dx, factor, n);
  VECOPS_CHECK(cudaStreamSynchronize(stream));
  VECOPS_CHECK(cudaMemcpy(x, dx, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaStreamDestroy(stream);
  cudaFree(dx);
  return 0;
}
