// atomicAdd on __nv_bfloat162 and __nv_bfloat16 (HeCBench f16atomic: "no matching function for call to
// 'atomicAdd'"): HIP 6.4.3 has unsafeAtomicAdd(__hip_bfloat162*) but no atomicAdd on either bfloat16 type. The
// translator writes two overloads done with a compare-and-swap loop on the 32-bit word (the half shim's text with
// the bfloat16 types), once, after the includes; the calls stay. The output must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: bf16_atomic_add.cu:{{[0-9]+}}:3: note: HIP has no atomicAdd on __hip_bfloat162/__hip_bfloat16{{.*}}[TR013]
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bf16.h>
// CHECK: #ifndef HIPFORGE_BF16_ATOMIC_ADD_SHIM
// CHECK-NEXT: #define HIPFORGE_BF16_ATOMIC_ADD_SHIM
// CHECK-NEXT: __device__ inline __hip_bfloat162 atomicAdd(__hip_bfloat162* address, __hip_bfloat162 value)
// CHECK-SAME: __device__ inline __hip_bfloat16 atomicAdd(__hip_bfloat16* address, __hip_bfloat16 value)
// CHECK-NEXT: #endif
// CHECK-NOT: HIPFORGE_HALF_ATOMIC_ADD_SHIM
__global__ void Accumulate(__nv_bfloat162* pairs, __nv_bfloat16* singles, float* total, const __nv_bfloat162* values) {
  const __nv_bfloat162 v = values[threadIdx.x];
  // CHECK: atomicAdd(&pairs[threadIdx.x % 8], v);
  atomicAdd(&pairs[threadIdx.x % 8], v);
  atomicAdd(singles + threadIdx.x % 3, v.x);
  atomicAdd(total, __bfloat162float(v.y));
}
