#include <hip/hip_runtime.h>

__global__ void Fill(float* x, float value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = value;
}

int FillOnDevice(float* host, int n) {
  float* device = nullptr;
  if (hipMalloc(&device, n * sizeof(float)) != hipSuccess) return 1;
  Fill<<<(n + 255) / 256, 256>>>(device, 1.0f, n);
  if (hipMemcpy(host, device, n * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess) return 1;
  return hipFree(device) == hipSuccess ? 0 : 1;
}
