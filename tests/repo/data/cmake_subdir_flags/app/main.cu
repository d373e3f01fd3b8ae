#include <cstdio>

#include <cuda_runtime.h>

#include "scale.h"

int main() {
  const int n = 1024;
  float* data = nullptr;
  if (cudaMalloc(&data, n * sizeof(float)) != cudaSuccess) return 1;
  scale_on_device(data, n);
  cudaFree(data);
  std::printf("%s\n", host_info());
  return 0;
}
