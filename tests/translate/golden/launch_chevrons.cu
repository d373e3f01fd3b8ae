// Default: kernel launches keep the <<<>>> syntax (HIP accepts it), including templates.
#include <cuda_runtime.h>

template <typename T>
__global__ void fill(T* out, T value) { out[threadIdx.x] = value; }
__global__ void plain(int* out) { out[0] = 1; }

int main() {
  int* data = nullptr;
  // CHECK: hipMalloc(&data, 64);
  cudaMalloc(&data, 64);
  // CHECK: plain<<<1, 1>>>(data);
  plain<<<1, 1>>>(data);
  // CHECK: fill<int><<<dim3(2), dim3(32), 0, 0>>>(data, 7);
  fill<int><<<dim3(2), dim3(32), 0, 0>>>(data, 7);
  // CHECK-NOT: hipLaunchKernelGGL
  return 0;
}
