// Cache-hint loads and stores (HeCBench layernorm: __ldcs/__stcs on float4 and float): HIP 6.4.3 has __ldcs,
// __ldcg and __ldca for __half/__half2 only and no store forms. The translator writes plain-load/plain-store
// templates (a hint changes caching, not the value) once, after the includes; the calls stay, and a __half call
// still reaches HIP's own overload. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: cache_hint_load_store.cu:{{[0-9]+}}:{{[0-9]+}}: note: HIP has no cache-hint loads and stores{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cuda_fp16.h>
#include <cuda_runtime.h>
// CHECK: #ifndef HIPFORGE_CACHE_HINT_SHIM
// CHECK: template <typename T> __device__ inline void __stcs(T* p, typename hipforge_hint_value<T>::type v) { *p = v; }
// CHECK-NOT: HIPFORGE_CACHE_HINT_SHIM
__global__ void Normalize(const float4* in, float4* out, const float* scale, double* sums, const __half* h, float* hf) {
  // CHECK: const float4 v = __ldcs(in + threadIdx.x);
  const float4 v = __ldcs(in + threadIdx.x);
  const float s = __ldcg(scale);
  // CHECK: __stcs(out + threadIdx.x, make_float4(v.x * s, v.y * s, v.z * s, v.w * s));
  __stcs(out + threadIdx.x, make_float4(v.x * s, v.y * s, v.z * s, v.w * s));
  __stwt(sums + threadIdx.x, 0.0f);
  hf[threadIdx.x] = __half2float(__ldcs(h + threadIdx.x));
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
