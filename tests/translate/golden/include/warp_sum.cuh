// Helper for warp_sync_define_from_header.cu (not a golden input itself): calls a *_sync warp function, so
// its translation defines HIP_ENABLE_WARP_SYNC_BUILTINS first thing.
#pragma once
#include <cuda_runtime.h>
__device__ inline float WarpSum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffff, value, offset);
  return value;
}
