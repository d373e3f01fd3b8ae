// OCP fp8 to float (ggml's ggml_cuda_ue4m3_to_fp32): HIP 6.4 declares __hip_fp8_e4m3's and __hip_fp8_e5m2's
// conversions host-only in device code for gfx942 (its device fp8 is FNUZ). The translator rewrites each conversion
// to float or double into hipforge_fp8_to_float, an exact software decode written once after the includes (with a
// note, before the first such conversion); the output must compile for gfx942 with HIP 6.4. Host code converts
// with HIP's own (exact there) and is left, as is an explicit `.operator float()` call.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: fp8_to_float.cu:[[@LINE+21]]:{{[0-9]+}}: note: HIP 6.4 converts OCP fp8{{.*}}[TR013]
#include <cstdint>
#include <cuda_fp8.h>
// CHECK: #include <hip/hip_fp8.h>
// CHECK-NEXT: #include <hip/hip_fp8.h>
// CHECK-NEXT: #ifndef HIPFORGE_FP8_TO_FLOAT_SHIM
// CHECK-NEXT: #define HIPFORGE_FP8_TO_FLOAT_SHIM
// CHECK-NEXT: #if defined(__HIP_PLATFORM_NVIDIA__)
// CHECK-NEXT: __host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e4m3 x) { return static_cast<float>(x); }
// CHECK-NEXT: __host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e5m2 x) { return static_cast<float>(x); }
// CHECK-NEXT: #else
// CHECK-NEXT: __host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e4m3 x) {
// CHECK-NEXT: __host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e5m2 x) {
// CHECK-NEXT: #endif
// CHECK-NEXT: #endif
// CHECK-NOT: HIPFORGE_FP8_TO_FLOAT_SHIM
__device__ float Decode(uint8_t x) {
  const uint32_t bits = x * (x != 0x7F && x != 0xFF);
  // CHECK: const __hip_fp8_e4m3 xf = *reinterpret_cast<const __hip_fp8_e4m3 *>(&bits);
  const __nv_fp8_e4m3 xf = *reinterpret_cast<const __nv_fp8_e4m3 *>(&bits);
  // CHECK: return static_cast<float>(hipforge_fp8_to_float(xf)) / 2;
  return static_cast<float>(xf) / 2;
}
__global__ void DecodeAll(const uint8_t* in, const __nv_fp8_e5m2* wide, float* out) {
  // CHECK: out[threadIdx.x] = Decode(in[threadIdx.x]) + static_cast<float>(hipforge_fp8_to_float(wide[threadIdx.x]));
  out[threadIdx.x] = Decode(in[threadIdx.x]) + static_cast<float>(wide[threadIdx.x]);
  // CHECK: out[threadIdx.x] += static_cast<double>(hipforge_fp8_to_float(wide[0]));
  out[threadIdx.x] += static_cast<double>(wide[0]);
}
float OnTheHost(__nv_fp8_e4m3 x) {
  // CHECK: return x.operator float() + static_cast<float>(x);
  return x.operator float() + static_cast<float>(x);
}
