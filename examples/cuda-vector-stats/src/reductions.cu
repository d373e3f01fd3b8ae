// Reductions written the way a lot of CUDA code is: warp-synchronous shuffles with a full 32-bit
// lane mask and a shared array sized for 32-lane warps.
#include "vector_stats.cuh"

namespace {

__device__ float warp_sum(float value) {
  // Five halving steps: 16, 8, 4, 2, 1 lanes -- exactly enough for a 32-lane warp.
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(FULL_MASK, value, offset);
  }
  return value;
}

__device__ float block_sum(float value) {
  __shared__ float warp_totals[BLOCK_THREADS / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  value = warp_sum(value);
  if (lane == 0) warp_totals[warp] = value;
  __syncthreads();
  // The first warp adds up the per-warp totals.
  value = (threadIdx.x < blockDim.x / WARP_SIZE) ? warp_totals[lane] : 0.0f;
  if (warp == 0) value = warp_sum(value);
  return value;
}

}  // namespace

__global__ void sum_reduce(int n, const float* x, float* total) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    local += x[i];
  }
  const float block_total = block_sum(local);
  if (threadIdx.x == 0) atomicAdd(total, block_total);
}

__global__ void dot_product(int n, const float* x, const float* y, float* total) {
  float local = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    local += x[i] * y[i];
  }
  const float block_total = block_sum(local);
  if (threadIdx.x == 0) atomicAdd(total, block_total);
}

__global__ void histogram(int n, const float* x, float bucket_width, int buckets, unsigned int* counts) {
  extern __shared__ unsigned int local_counts[];
  for (int b = threadIdx.x; b < buckets; b += blockDim.x) local_counts[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int bucket = static_cast<int>(x[i] / bucket_width);
    bucket = bucket < 0 ? 0 : (bucket >= buckets ? buckets - 1 : bucket);
    atomicAdd(&local_counts[bucket], 1u);
  }
  __syncthreads();
  // Only lanes whose vote is set publish; the ballot result is treated as a 32-bit mask.
  for (int b = threadIdx.x; b < buckets; b += blockDim.x) {
    const unsigned int has_counts = __ballot_sync(FULL_MASK, local_counts[b] != 0);
    if (has_counts & (1u << (threadIdx.x % 32))) atomicAdd(&counts[b], local_counts[b]);
  }
}

float host_sum(int n, const float* x) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) total += x[i];
  return static_cast<float>(total);
}

float host_dot(int n, const float* x, const float* y) {
  double total = 0.0;
  for (int i = 0; i < n; ++i) total += static_cast<double>(x[i]) * y[i];
  return static_cast<float>(total);
}
