// HB207 golden input: OCP fp8 (cuda_fp8.h) in a program built for gfx942 (MI300), as HeCBench addBiasQKV-cuda.
#include <cuda_fp8.h>

__global__ void quantize(const float* in, __nv_fp8_e4m3* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __nv_fp8_e4m3(in[i]);
}

__global__ void quantize4(const float4* in, __nv_fp8x4_e4m3* out, __nv_fp8x2_storage_t* raw) {
  out[threadIdx.x] = __nv_fp8x4_e4m3(in[threadIdx.x]);
  raw[threadIdx.x] = __nv_cvt_float2_to_fp8x2(make_float2(0.f, 1.f), __NV_SATFINITE, __NV_E5M2);
}

// Negatives: names in comments (__nv_fp8_e5m2) and in string literals stay silent.
const char* kFormat = "__nv_fp8_e4m3";
