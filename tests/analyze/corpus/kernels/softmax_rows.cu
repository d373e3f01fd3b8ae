// Row softmax: one warp per row, unrolled butterfly reductions.
#include <cuda_runtime.h>
#include <cfloat>

#define FULL_MASK 0xffffffff
constexpr int kWarpSize = 32;

__device__ __forceinline__ float warp_max(float v) {
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 16));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 8));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 4));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 2));
  v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, 1));
  return v;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int mask = 1; mask < 32; mask *= 2) v += __shfl_xor_sync(FULL_MASK, v, mask);
  return v;
}

__global__ void softmax(const float* in, float* out, int rows, int cols) {
  const int lane = threadIdx.x % kWarpSize;
  const int row = blockIdx.x * (blockDim.x / kWarpSize) + threadIdx.x / kWarpSize;
  if (row >= rows) return;
  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += kWarpSize) m = fmaxf(m, in[row * cols + c]);
  m = warp_max(m);
  float s = 0.f;
  for (int c = lane; c < cols; c += kWarpSize) s += __expf(in[row * cols + c] - m);
  s = warp_sum(s);
  for (int c = lane; c < cols; c += kWarpSize) out[row * cols + c] = __expf(in[row * cols + c] - m) / s;
}
