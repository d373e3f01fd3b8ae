// atomicAdd on __half2 and __half (HeCBench f16atomic, lut-gemm): HIP 6.4.3 declares atomicAdd for int, float,
// double, ... but not the half types (it has unsafeAtomicAdd(__half2*), which uses the hardware add that
// fine-grained host memory lacks). The translator writes two overloads done with a compare-and-swap loop on the
// 32-bit word, once, after the includes; the calls stay, and a float atomicAdd still reaches HIP's own.
// The output must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: half_atomic_add.cu:[[@LINE+13]]:3: note: HIP has no atomicAdd on __half2/__half{{.*}}[TR013]
#include <cuda_fp16.h>
// CHECK: #include <hip/hip_fp16.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_fp16.h>
// CHECK-NEXT: #ifndef HIPFORGE_HALF_ATOMIC_ADD_SHIM
// CHECK-NEXT: #define HIPFORGE_HALF_ATOMIC_ADD_SHIM
// CHECK-NEXT: __device__ inline __half2 atomicAdd(__half2* address, __half2 value)
// CHECK-SAME: __device__ inline __half atomicAdd(__half* address, __half value)
// CHECK-NEXT: #endif
__global__ void Accumulate(half2* pairs, __half* singles, float* total, const half2* values) {
  const half2 v = values[threadIdx.x];
  // CHECK: atomicAdd(&pairs[threadIdx.x % 8], v);
  atomicAdd(&pairs[threadIdx.x % 8], v);
  atomicAdd(singles + threadIdx.x % 3, __low2half(v));
  atomicAdd(total, __half2float(__high2half(v)));
}
