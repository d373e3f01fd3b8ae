// Device code that exists only in the device compilation pass.
#include <cuda_runtime.h>

__device__ float warp_max(float v) {
#if defined(__CUDA_ARCH__)
  for (int offset = 16; offset > 0; offset >>= 1)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
#endif
  return v;
}

__global__ void row_max(const float* in, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  v = warp_max(v);
#ifdef __CUDA_ARCH__
  if ((threadIdx.x & 31) == 0) out[blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize] = v;
#endif
}
