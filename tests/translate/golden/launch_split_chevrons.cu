// Launches written `k << < grid, block >> > (...)` (as some formatters leave them) are rejoined to <<< >>>;
// Clang rejects the split form, so the file goes through the token-level fallback, which says so.
// STDERR: [TR007]
#include <cuda_runtime.h>
__global__ void Scale(float* data, float factor) { data[threadIdx.x] *= factor; }
int main() {
  float* data = nullptr;
  cudaMalloc(&data, 32 * sizeof(float));
  // CHECK: Scale <<< 1, 32 >>> (data, 2.0f);
  Scale << < 1, 32 >> > (data, 2.0f);
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
