// Half-warp and sub-group shuffles with partial lane masks.
#include <cuda_runtime.h>

__global__ void half_warp_sum(const float* in, float* out) {
  int lane = threadIdx.x & 31;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned mask = lane < 16 ? 0x0000ffff : 0xffff0000;
  for (int o = 8; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o, 16);
  if ((lane & 15) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 16] = v;
}

__device__ float group_broadcast(float v, int group_size) {
  unsigned group_mask = (1u << group_size) - 1;
  return __shfl_sync(group_mask, v, 0, group_size);
}

__global__ void lower_half_only(float* data) {
  float v = data[threadIdx.x];
  if (threadIdx.x < 16) v = __shfl_xor_sync(0x0000ffff, v, 1);
  data[threadIdx.x] = v + group_broadcast(v, 8);
}
