// Per-thread default stream usage.
#include <cuda_runtime.h>

__global__ void inc(int* x) { x[threadIdx.x] += 1; }

void per_thread(int* d) {
  inc<<<1, 64, 0, cudaStreamPerThread>>>(d);
  cudaStreamSynchronize(cudaStreamPerThread);
}

void legacy(int* d) {
  inc<<<1, 64>>>(d);
  cudaMemsetAsync(d, 0, 64 * sizeof(int), cudaStreamLegacy);
  cudaStreamSynchronize(0);
}
