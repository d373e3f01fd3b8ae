// ARGS: --hip-kernel-execution-syntax
// A missing header stops Clang; the file is still translated from tokens and reported as a fallback.
// STDERR: warning: translated by the token-level fallback: {{.*}}does_not_exist.h{{.*}}file not found [TR007]
// JSON: "status": "fallback"
#include <cuda_runtime.h>
#include "does_not_exist.h"

template <typename T>
__global__ void fill(T* out, T value) { out[threadIdx.x] = value; }

int main() {
  float* data = nullptr;
  // CHECK: hipMalloc(&data, 256);
  cudaMalloc(&data, 256);
  ProjectType extra = make_project_type();
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float>), dim3(4), dim3(64), 0, 0, data, 1.0f);
  fill<float><<<4, 64>>>(data, 1.0f);
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
