#include <cstdio>

#include <cuda_runtime.h>

__device__ float axpy(float a, float x, float y) { return a * x + y; }

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = axpy(a, x[i], y[i]);
}

int main() {
  const int n = 1 << 16;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  cudaDeviceSynchronize();
  std::printf("done\n");
  cudaFree(x);
  cudaFree(y);
  return 0;
}
