// ARGS: --cuda-path=/nonexistent-cuda
// Without a CUDA toolkit, runtime API code cannot parse; the fallback still translates it, and says so.
// JSON: "status": "fallback"
// STDERR: [TR007]
#include <cuda_runtime.h>
int main() {
  int* data;
  // CHECK: hipMalloc(&data, 4);
  cudaMalloc(&data, 4);
  // CHECK: hipFree(data);
  cudaFree(data);
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
