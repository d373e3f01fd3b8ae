// __dp4a (HeCBench dp4a): HIP 6.4.3 has no such function. The translator writes an exact inline definition
// (the four overloads CUDA has) once, after the last file-scope include before the first call, with a note;
// the calls stay. The output must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: dp4a.cu:[[@LINE+15]]:{{[0-9]+}}: note: HIP has no __dp4a{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cstdio>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #ifndef HIPFORGE_DP4A_SHIM
// CHECK-NEXT: #define HIPFORGE_DP4A_SHIM
// CHECK-NEXT: __device__ inline int __dp4a(int a, int b, int c)
// CHECK-NEXT: #endif
// CHECK-NOT: HIPFORGE_DP4A_SHIM
template <typename T>
__global__ void Dot(const T* a, const T* b, T* out, int n) {
  T sum = 0;
  // CHECK: for (int i = threadIdx.x; i < n; i += blockDim.x) sum = __dp4a(a[i], b[i], sum);
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum = __dp4a(a[i], b[i], sum);
  out[threadIdx.x] = sum;
}
__global__ void DotBytes(const char4* a, const char4* b, int* out) {
  // CHECK: out[threadIdx.x] = __dp4a(a[threadIdx.x], b[threadIdx.x], 0);
  out[threadIdx.x] = __dp4a(a[threadIdx.x], b[threadIdx.x], 0);
}
void Run(const int* a, const int* b, int* out, const unsigned* ua, const unsigned* ub, unsigned* uout) {
  Dot<int><<<1, 64>>>(a, b, out, 64);
  Dot<unsigned><<<1, 64>>>(ua, ub, uout, 64);
}
