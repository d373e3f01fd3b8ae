// ARGS: --hip-kernel-execution-syntax
// Launches become hipLaunchKernelGGL: templates, default arguments, shared memory and streams, macros.
#include <cuda_runtime.h>

template <typename T, int N>
__global__ void scale(T* out, T factor) { out[threadIdx.x] *= factor * N; }
__global__ void with_default(int* out, int value = 3) { out[0] = value; }
__global__ void plain(int* out) { out[0] = 1; }

// CHECK: #define LAUNCH_PLAIN(ptr) hipLaunchKernelGGL(plain, dim3(1), dim3(1), 0, 0, ptr)
#define LAUNCH_PLAIN(ptr) plain<<<1, 1>>>(ptr)

int main() {
  int* data = nullptr;
  float* values = nullptr;
  cudaStream_t stream;
  dim3 grid(4), block(64);
  // CHECK: hipLaunchKernelGGL(plain, dim3(1), dim3(1), 0, 0, data);
  plain<<<1, 1>>>(data);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 2>), dim3(grid), dim3(block), 128, stream, values, 2.0f);
  scale<float, 2><<<grid, block, 128, stream>>>(values, 2.0f);
  // CHECK: hipLaunchKernelGGL(with_default, dim3(1), dim3(32), 0, 0, data);
  with_default<<<1, 32>>>(data);
  // CHECK: hipLaunchKernelGGL(plain, dim3(grid.x), dim3(block), 0, 0, data);
  plain<<<grid.x, block>>>(data);
  LAUNCH_PLAIN(data);
  return 0;
}
