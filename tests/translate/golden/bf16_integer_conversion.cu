// __bfloat162int_rn and its family (HeCBench mxfp4): HIP 6.4.3's hip_bf16.h has none of them. A bfloat16 converts
// to float exactly, so HIP's __float2int_* of that float rounds the same value the same way: the translator
// writes those definitions once after the includes; the calls stay. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: bf16_integer_conversion.cu:[[@LINE+10]]:{{[0-9]+}}: note: HIP has no __bfloat162int_*{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_bf16.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_bf16.h>
// CHECK-NEXT: #ifndef HIPFORGE_BF16_INTEGER_SHIM
// CHECK: #endif
__global__ void Quantize(const __nv_bfloat16* in, int* out, unsigned* uout) {
  // CHECK: out[threadIdx.x] = __bfloat162int_rn(in[threadIdx.x]) + __bfloat162int_rz(in[threadIdx.x]);
  out[threadIdx.x] = __bfloat162int_rn(in[threadIdx.x]) + __bfloat162int_rz(in[threadIdx.x]);
  uout[threadIdx.x] = __bfloat162uint_ru(in[threadIdx.x]);
}
