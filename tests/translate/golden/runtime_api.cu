// Runtime API functions, types, enum constants and CUDA names inside string literals.
#include <cuda_runtime.h>
#include <cstdio>

int main() {
  float* device = nullptr;
  // CHECK: hipError_t status = hipMalloc(&device, 64 * sizeof(float));
  cudaError_t status = cudaMalloc(&device, 64 * sizeof(float));
  // CHECK: if (status != hipSuccess) printf("hipMalloc failed\n");
  if (status != cudaSuccess) printf("cudaMalloc failed\n");
  float host[64] = {};
  // CHECK: hipMemcpy(device, host, sizeof(host), hipMemcpyHostToDevice);
  cudaMemcpy(device, host, sizeof(host), cudaMemcpyHostToDevice);
  // CHECK: hipStream_t stream;
  cudaStream_t stream;
  // CHECK: hipStreamCreate(&stream);
  cudaStreamCreate(&stream);
  // CHECK: hipDeviceProp_t properties;
  cudaDeviceProp properties;
  // CHECK: hipGetDeviceProperties(&properties, 0);
  cudaGetDeviceProperties(&properties, 0);
  // CHECK: hipFree(device);
  cudaFree(device);
  return 0;
}
