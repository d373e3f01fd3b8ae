#include <hip/hip_runtime.h>
#include <cstdio>

#include "checksum.h"

__global__ void scale(float* x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

int main() {
  const int n = 256;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float* device = nullptr;
  if (hipMalloc(&device, sizeof(host)) != hipSuccess) return 1;
  hipMemcpy(device, host, sizeof(host), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(scale, dim3(n / 64), dim3(64), 0, 0, device, 2.0f, n);
  hipMemcpy(host, device, sizeof(host), hipMemcpyDeviceToHost);
  printf("%u\n", checksum(host, n));
  return hipFree(device) == hipSuccess ? 0 : 1;
}
