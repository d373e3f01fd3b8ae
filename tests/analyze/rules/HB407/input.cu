// HB407 golden input: per-thread and legacy default streams.
#include <cuda_runtime.h>

__global__ void kernel(float* x) { x[threadIdx.x] = 0.0f; }

void run(float* x) {
  kernel<<<1, 256, 0, cudaStreamPerThread>>>(x);
  cudaStreamSynchronize(cudaStreamLegacy);
  // Negative: an explicit stream.
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  kernel<<<1, 256, 0, stream>>>(x);
}
