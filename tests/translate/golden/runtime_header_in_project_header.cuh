// nvcc includes cuda_runtime.h implicitly, so project headers often use the runtime API without including it;
// clang's HIP mode does not, so such a header gets <hip/hip_runtime.h> after its include guard.
// CHECK: #ifndef CONTEXT_H
// CHECK-NEXT: #define CONTEXT_H 1
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK: #include <cstdio>
// CHECK: if (result != hipSuccess) {
#ifndef CONTEXT_H
#define CONTEXT_H 1
#include <cstdio>
inline void check(cudaError_t result) {
  if (result != cudaSuccess) {
    std::printf("%s\n", cudaGetErrorString(result));
  }
}
#endif
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
