// Code Clang rejects (here a stray token and chevrons written apart) is translated from tokens.
// STDERR: [TR007]
#include <cuda_runtime.h>
__global__ void kernel(int* out) { out[0] = 1; }
int main() {
  int* data = nullptr
  // CHECK: hipMalloc(&data, 4);
  cudaMalloc(&data, 4);
  // CHECK: kernel<<<1, 1>>>(data);
  kernel<< <1, 1>> >(data);
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
