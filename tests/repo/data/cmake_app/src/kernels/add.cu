#include <cuda_runtime.h>

#include "launch_config.cuh"
#include "vecops.h"

__global__ void AddKernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int vecops_add(const float* a, const float* b, float* c, int n) {
  const size_t bytes = n * sizeof(float);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  VECOPS_CHECK(cudaMalloc(&da, bytes));
  VECOPS_CHECK(cudaMalloc(&db, bytes));
  VECOPS_CHECK(cudaMalloc(&dc, bytes));
  VECOPS_CHECK(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice));
  VECOPS_CHECK(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice));
  AddKernel<<<BlocksFor(n), kThreadsPerBlock>>>(da, db, dc, n);
  VECOPS_CHECK(cudaGetLastError());
  VECOPS_CHECK(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost));
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
