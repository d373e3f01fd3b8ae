#include <cuda_runtime.h>

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void broken(float* data) {
  data[threadIdx.x] = undefined_helper(data[threadIdx.x]);
}

void launch(float* d, int n) {
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  broken<<<1, 32>>>(d);
}
