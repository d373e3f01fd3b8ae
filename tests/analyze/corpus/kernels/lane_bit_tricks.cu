// Lane and warp ids from bit operations, as many hand-tuned kernels write them.
#include <cuda_runtime.h>
#include <cstdint>

#define WARP_SIZE 32
#define LOG_WARP 5

__global__ void histogram_warp_private(const uint8_t* data, unsigned* bins, int n) {
  __shared__ unsigned warp_hist[8][256];
  const int lane_id = threadIdx.x & 0x1f;
  const int warp_id = threadIdx.x >> 5;
  for (int i = threadIdx.x; i < 8 * 256; i += blockDim.x) (&warp_hist[0][0])[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&warp_hist[warp_id][data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned total = 0;
    for (int w = 0; w < blockDim.x / WARP_SIZE; ++w) total += warp_hist[w][b];
    atomicAdd(&bins[b], total);
  }
  if (lane_id == 0 && warp_id > 8) __trap();
}

__global__ void scan_step(int* v) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int warp_global = gtid >> LOG_WARP;
  int x = v[gtid];
  for (int d = 1; d < warpSize; d <<= 1) {
    int y = __shfl_up_sync(__activemask(), x, d);
    if ((threadIdx.x & (warpSize - 1)) >= d) x += y;
  }
  v[gtid] = x + warp_global * 0;
}
