#include <cuda_runtime.h>
#include "api.h"

// Host flags (nvcc gives -Xcompiler to the host compiler only).
#if !defined(__CUDA_ARCH__) && (!defined(GPU_HOST_A) || !defined(GPU_HOST_B))
#error "the host flags given through -Xcompiler did not arrive one by one"
#endif

__global__ void scale(float* x, float factor) { x[threadIdx.x] *= factor; }

float scale_on_gpu(float* host, int n, float factor) {
  float* device = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<1, n>>>(device, factor);
  cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return api_clamp(host[0], 0.0f, 1.0f);
}
