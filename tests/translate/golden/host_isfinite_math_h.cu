// A host template that classifies floats with unqualified isfinite after <cmath> (HeCBench qkv's validate_result):
// nvcc's math headers declare ::isfinite for host code; with HIP it failed ("no matching function for call to
// 'isfinite'"). The translator includes <math.h>, whose libstdc++ form brings std's overloads into the global
// namespace. A file that already includes <math.h>, or only calls std::isfinite, gets nothing. Must compile for
// gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// CHECK: #include <math.h>
// CHECK-NEXT: #include <cmath>
// CHECK-NOT: #include <math.h>
#include <cmath>
#include <cuda_runtime.h>
template <typename T>
int CountFinite(const T* reference, int n) {
  int finite = 0;
  for (int i = 0; i < n; ++i) finite += isfinite(reference[i]) ? 1 : 0;
  return finite;
}
int Run(const float* host, int n) { return CountFinite<float>(host, n) + (std::isnan(host[0]) ? 1 : 0); }
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
