#include "hip/hip_runtime.h"
// hipforge: translated from CUDA
#include <hip/hip_runtime.h>

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void broken(float* data) {
  data[threadIdx.x] = undefined_helper(data[threadIdx.x]);
}

void launch(float* d, int n) {
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, d, 2.0f, n);
  hipLaunchKernelGGL(broken, dim3(1), dim3(32), 0, 0, d);
}
