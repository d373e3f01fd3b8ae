// HB101 golden input: literal warp sizes in lane/warp arithmetic (positives) and 32-wide tiles (negatives).
#include <cuda_runtime.h>
#define WARP_SIZE 32

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  float v = tid < n ? in[tid] : 0.0f;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  int first_lane = threadIdx.x & (warpSize - 1);
  int first_warp = ((threadIdx.x) / warpSize);
  int warps = blockDim.x / WARP_SIZE;
  int block_group = blockIdx.x / 32;
  if (first_warp == 0) {
    v = first_lane < warps ? partial[first_lane] : 0.0f;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
    if (first_lane == 0) out[blockIdx.x] = v + block_group * 0;
  }
}

// Negatives: tiles of 32 indexed by the thread index, without warp primitives.
__global__ void transpose(const float* in, float* out, int width) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  int row = threadIdx.x / 32;
  int col = threadIdx.x % 32;
  out[x * width + y] = tile[threadIdx.x][threadIdx.y] + row + col;
}

// Negatives: wave-size-agnostic code.
__global__ void agnostic(float* out) {
  int lane = threadIdx.x % warpSize;
  int warp = threadIdx.x / warpSize;
  float v = __shfl_down_sync(__activemask(), 1.0f, 1);
  out[warp] = v + lane + (blockIdx.x % 32);
}

void launch(const float* in, float* out, int n) {
  dim3 block(32, 32);
  dim3 grid((n + 31) / 32, n / 32);
  transpose<<<grid, block>>>(in, out, n);
}

// Rows of 32 by design: a lane from `& 31` indexes `tile[..][32]`; left as written (consistent on wave64).
__global__ void rows_of_32(const int* in, int* out) {
  __shared__ int tile[8][32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  tile[warp][lane] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[warp][31 - lane];
}

// The last lane written as 31 (a scan's total): fixed. In 32-lane segments (width-32 shuffles) and beside 32-bit
// ballot words, the 32s are sizes by design: reported, left as written.
__global__ void last_lane(const int* in, int* out) {
  const int lane = threadIdx.x % warpSize;
  int v = in[threadIdx.x];
  v += __shfl_up_sync(__activemask(), v, 1);
  if (lane == (warpSize - 1)) out[threadIdx.x / warpSize] = v;
}

__global__ void segments_of_32(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  v += __shfl_up_sync(__activemask(), v, 1, 32);
  if (lane == 31) out[threadIdx.x / 32] = v;
}

__global__ void ballot_words(const int* in, unsigned* words) {
  const unsigned long long votes = __ballot_sync(__activemask(), in[threadIdx.x] > 0);
  if (threadIdx.x % 32 == 0) words[threadIdx.x / 32] = static_cast<unsigned>(votes);
}

// Xor masks below 32 stay in a 32-lane segment: a subgroup of 32 by design (HeCBench shuffle-cuda), left as written.
__global__ void xor_subgroups_of_32(int* out) {
  int value = threadIdx.x & 0x1f;
  for (int mask = 1; mask < 0x1f; mask *= 2) value += __shfl_xor_sync(__activemask(), value, mask);
  out[threadIdx.x] = value;
}

// The number of warps as a float (HeCBench logprob-cuda): fixed like `/ 32`.
__global__ void warps_as_float(const float* partial, float* out) {
  float v = threadIdx.x < blockDim.x / static_cast<float>(warpSize) ? partial[threadIdx.x] : 0.0f;
  out[threadIdx.x] = __shfl_down_sync(__activemask(), v, 1);
}
