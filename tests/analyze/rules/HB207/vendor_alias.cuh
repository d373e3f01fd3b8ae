// HB207: the alias line is silent; a conversion of the aliased (OCP) type in the same header is not.
#pragma once
#include <hip/hip_fp8.h>
typedef __hip_fp8_e4m3 __nv_fp8_e5m2;
__device__ inline void encode(float x, __nv_fp8_e5m2* out) { *out = __nv_fp8_e5m2(x); }
