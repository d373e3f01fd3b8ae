// A unit without a CUDA include gets <hip/hip_runtime.h> before its first include, as hipify-clang does.
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <cstdio>
#include <cstdio>
__global__ void kernel(int* out) { out[threadIdx.x] = 0; }
int main() {
  int* data;
  // CHECK: hipMalloc(&data, 4);
  cudaMalloc(&data, 4);
  return 0;
}
