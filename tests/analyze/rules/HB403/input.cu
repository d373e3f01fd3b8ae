// HB403 golden input: stream-ordered allocation and memory pools.
#include <cuda_runtime.h>

void work(cudaStream_t stream, size_t bytes) {
  void* buffer = nullptr;
  cudaMallocAsync(&buffer, bytes, stream);
  cudaFreeAsync(buffer, stream);
}

void configure_pool() {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long threshold = ~0ull;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
}

// Negative: ordinary allocation.
void plain(size_t bytes) {
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  cudaFree(buffer);
}
