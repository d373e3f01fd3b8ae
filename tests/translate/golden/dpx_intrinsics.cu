// Hopper's DPX functions (HeCBench intrinsics-simd; dynamic-programming kernels): HIP 6.4.3 has none of the 36.
// The translator writes exact inline definitions (host and device, as CUDA's are; core/simd_intrinsics_shim.h,
// checked bit for bit against CUDA's on an H200: bench/simd/README.md) once, after the includes, with a note.
// The output must compile for gfx942 and gfx90a with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 --offload-arch=gfx90a -std=c++17 -Wall -fsyntax-only
// ARGS: -v
// STDERR: dpx_intrinsics.cu:[[@LINE+16]]:{{[0-9]+}}: note: HIP has no DPX functions{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #ifndef HIPFORGE_DPX_INTRINSICS_SHIM
// CHECK-NEXT: #define HIPFORGE_DPX_INTRINSICS_SHIM
// CHECK-NEXT: #if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
// CHECK: __host__ __device__ __forceinline__ int __vimax3_s32(const int a, const int b, const int c)
// CHECK: #undef HIPFORGE_DPX_16X2{{$}}
// CHECK-NEXT: #endif
// CHECK-NEXT: #endif
// CHECK-NOT: HIPFORGE_DPX_INTRINSICS_SHIM
// Smith-Waterman's cell: the best of diagonal + score, up - gap and left - gap, never below zero.
__device__ int cell(int diagonal, int score, int up, int left, int gap) {
  // CHECK: return __vimax3_s32_relu(diagonal + score, up - gap, left - gap);
  return __vimax3_s32_relu(diagonal + score, up - gap, left - gap);
}
__global__ void Kernel(const unsigned* a, const unsigned* b, unsigned* out, bool* took_a) {
  const int i = threadIdx.x;
  // CHECK: out[i] = __viaddmax_s16x2(a[i], b[i], out[i]) + __vibmax_u32(a[i], b[i], &took_a[i]) + cell(1, 2, 3, 4, 5);
  out[i] = __viaddmax_s16x2(a[i], b[i], out[i]) + __vibmax_u32(a[i], b[i], &took_a[i]) + cell(1, 2, 3, 4, 5);
}
int HostSide(int a, int b) { return __vimin3_s32(a, b, 0); }
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
