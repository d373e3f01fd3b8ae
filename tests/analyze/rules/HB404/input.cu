// HB404 golden input: managed memory and memory advice.
#include <cuda_runtime.h>

__managed__ int counter;

void managed(size_t n) {
  float* data = nullptr;
  cudaMallocManaged(&data, n * sizeof(float));
  cudaMemAdvise(data, n * sizeof(float), cudaMemAdviseSetReadMostly, 0);
  cudaMemPrefetchAsync(data, n * sizeof(float), 0, 0);
  cudaFree(data);
}

// Negative: explicit device memory.
void explicit_memory(size_t n) {
  float* data = nullptr;
  cudaMalloc(&data, n * sizeof(float));
  cudaFree(data);
}
