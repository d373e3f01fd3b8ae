// A file that already includes the HIP runtime (half-migrated code) gets no second runtime include; a CUDA
// include that maps to the same header is removed as a duplicate.
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NOT: #include <hip/hip_runtime.h>
#include <hip/hip_runtime.h>
#include <cuda_runtime.h>
int main() {
  float* data = nullptr;
  // CHECK: hipMalloc(&data, 16);
  cudaMalloc(&data, 16);
  // CHECK: hipFree(data);
  hipFree(data);
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
