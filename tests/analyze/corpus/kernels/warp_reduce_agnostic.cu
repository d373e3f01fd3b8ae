// Wave-size-agnostic reduction: nothing here assumes 32 lanes.
#include <cuda_runtime.h>

template <typename T>
__device__ T warp_sum(T v) {
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(__activemask(), v, offset);
  return v;
}

__global__ void row_sums(const float* __restrict__ m, float* __restrict__ sums, int cols) {
  extern __shared__ float per_warp[];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int warps = (blockDim.x + warpSize - 1) / warpSize;
  float acc = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += m[blockIdx.x * cols + c];
  acc = warp_sum(acc);
  if (lane == 0) per_warp[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = lane < warps ? per_warp[lane] : 0.f;
    acc = warp_sum(acc);
    if (lane == 0) sums[blockIdx.x] = acc;
  }
}

void launch_row_sums(const float* m, float* sums, int rows, int cols, cudaStream_t stream) {
  int device = 0, warp = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  const int threads = 256;
  row_sums<<<rows, threads, (threads / warp) * sizeof(float), stream>>>(m, sums, cols);
}
