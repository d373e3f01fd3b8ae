// CUDA's SIMD intrinsics (ggml's vecdotq.cuh: __vsubss4, __vsub4, __vcmpne4; HeCBench): HIP 6.4.3 has none of
// the 82. The translator writes exact inline definitions of all of them (core/simd_intrinsics_shim.h, checked
// bit for bit against CUDA's on an H200: bench/simd/README.md) once, after the includes, with a note; the calls
// stay. The output must compile for gfx942 and gfx90a with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 --offload-arch=gfx90a -std=c++17 -Wall -fsyntax-only
// ARGS: -v
// STDERR: simd_intrinsics.cu:[[@LINE+16]]:{{[0-9]+}}: note: HIP has no per-byte/per-halfword SIMD intrinsics{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cstdint>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #ifndef HIPFORGE_SIMD_INTRINSICS_SHIM
// CHECK-NEXT: #define HIPFORGE_SIMD_INTRINSICS_SHIM
// CHECK-NEXT: #if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
// CHECK: HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, subss, hipforge_simd::SatS<W>(sa - sb))
// CHECK-NOT: HIPFORGE_SIMD_INTRINSICS_SHIM
// CHECK: #undef HIPFORGE_SIMD_PAIRWISE
// CHECK-NEXT: #endif
// CHECK-NEXT: #endif
__device__ int q4_dot(int v, int u) {
  // CHECK: const int vi = __vsubss4(v & 0x0F0F0F0F, 0x08080808);
  const int vi = __vsubss4(v & 0x0F0F0F0F, 0x08080808);
  // CHECK: const int mask = __vcmpne4(vi, 0) & __vsub4(u, 0x01010101);
  const int mask = __vcmpne4(vi, 0) & __vsub4(u, 0x01010101);
  return vi ^ mask;
}
__global__ void Kernel(const unsigned* a, const unsigned* b, unsigned* out) {
  const int i = threadIdx.x;
  // CHECK: out[i] = q4_dot(a[i], b[i]) + __vsads2(a[i], b[i]) + __vavgu4(a[i], b[i]) + __vabsss2(a[i]);
  out[i] = q4_dot(a[i], b[i]) + __vsads2(a[i], b[i]) + __vavgu4(a[i], b[i]) + __vabsss2(a[i]);
}
