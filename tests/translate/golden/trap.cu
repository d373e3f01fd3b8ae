// CUDA's __trap() is clang's __builtin_trap() in HIP (no HIP release declares __trap; ggml's common.cuh calls it
// when a kernel has no code for the device). The output must compile with hipcc.
// COMPILE: --offload-arch=gfx90a
// JSON: "unsupported": 0
#include <cuda_runtime.h>
__global__ void Check(const int* flags) {
  // CHECK: if (flags[threadIdx.x] < 0) __builtin_trap();
  if (flags[threadIdx.x] < 0) __trap();
}
