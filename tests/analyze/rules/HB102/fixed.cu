// HB102 golden input: 32-bit full lane masks in *_sync intrinsics.
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffffffffffffull

__device__ float warp_sum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);
  return v;
}

__global__ void kernel(float* out) {
  float v = warp_sum(out[threadIdx.x]);
  v = __shfl_sync(FULL_MASK, v, 0);
  bool any = __any_sync(0xffffffffffffffffull, v > 0.0f);
  __syncwarp(0xffffffffffffffffull);
  // Negatives: 64-bit and partial masks, and 0xffffffff outside warp intrinsics.
  unsigned int bits = 0xffffffff;
  float w = __shfl_sync(0xffffffffffffffffull, v, 1);
  float half = __shfl_sync(0x000000000000ffffull, v, 1);
  out[threadIdx.x] = v + w + half + (any ? 1.0f : 0.0f) + (bits & 1);
}
