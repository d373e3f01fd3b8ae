// Stream-ordered allocation and unified memory.
#include <cuda_runtime.h>

__global__ void fill(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 1.f;
}

void stream_ordered(int n, cudaStream_t s) {
  float* tmp = nullptr;
  cudaMallocAsync(&tmp, n * sizeof(float), s);
  fill<<<(n + 255) / 256, 256, 0, s>>>(tmp, n);
  cudaFreeAsync(tmp, s);
}

void configure_pool(int device) {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, device);
  unsigned long long threshold = ~0ull;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
}

float managed_sum(int n, int device) {
  float* data = nullptr;
  cudaMallocManaged(&data, n * sizeof(float));
  cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetPreferredLocation, device);
  cudaMemPrefetchAsync(data, n * sizeof(float), device);
  fill<<<(n + 255) / 256, 256>>>(data, n);
  cudaDeviceSynchronize();
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += data[i];
  cudaFree(data);
  return s;
}
