// cuda_bf16.h and cuda_fp8.h (default target HIP 6.4): the headers become hip/hip_bf16.h and hip/hip_fp8.h, the
// types their __hip_ names, __float2bfloat16_rn HIP's __float2bfloat16 (also round-to-nearest-even), the float pair
// makers HIP lacks its makers from converted halves; names HIP
// spells as CUDA does stay. HIP 6.4 converts the OCP fp8 types (CUDA's) on the host only when compiling for
// gfx94x (whose hardware format is FNUZ), so fp8 is used on the host here. The output must compile for gfx942
// with HIP 6.4 (checked where that toolchain is present).
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// ARGS: -v --no-analyze
// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_bf16.h>
#include <cuda_bf16.h>
// CHECK: #include <hip/hip_fp8.h>
#include <cuda_fp8.h>
// No finding: every name has a HIP 6.4 counterpart.
// JSON: "findings": []
// JSON: "unsupported": 0
// CHECK: __global__ void Scale(const float* in, __hip_bfloat16* out, __hip_bfloat162* pairs, float factor) {
__global__ void Scale(const float* in, __nv_bfloat16* out, __nv_bfloat162* pairs, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float value = in[i] * factor;
  // CHECK: out[i] = __float2bfloat16(value);
  out[i] = __float2bfloat16_rn(value);
  // CHECK: __hip_bfloat16 low = __float2bfloat16(value);
  nv_bfloat16 low = __float2bfloat16(value);
  // CHECK: pairs[i] = __hip_bfloat162(low, __float2bfloat16(__bfloat162float(low) * 2.0f));
  pairs[i] = __nv_bfloat162(low, __float2bfloat16(__bfloat162float(low) * 2.0f));
  // HIP has no float-taking pair makers: the halves are converted first.
  // CHECK: pairs[i + 1] = __bfloat162bfloat162(__float2bfloat16(value));
  pairs[i + 1] = __float2bfloat162_rn(value);
  // CHECK: pairs[i + 2] = __halves2bfloat162(__float2bfloat16(value), __float2bfloat16(value * 2.0f));
  pairs[i + 2] = __floats2bfloat162_rn(value, value * 2.0f);
  // CUDA 12.2's make_bfloat162 is HIP's __halves2bfloat162; make_float2 is not touched.
  // CHECK: pairs[i + 3] = __halves2bfloat162(low, low);
  pairs[i + 3] = make_bfloat162(low, low);
  // CHECK: const float2 both = make_float2(value, value);
  const float2 both = make_float2(value, value);
  out[i + 1] = __float2bfloat16(both.y);
}
// CHECK: float RoundTrip(float value) { return static_cast<float>(__hip_fp8_e4m3(value)); }
float RoundTrip(float value) { return static_cast<float>(__nv_fp8_e4m3(value)); }
