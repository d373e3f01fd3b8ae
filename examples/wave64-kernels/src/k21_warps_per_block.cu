// HB101 (blockDim / 32): the number of per-warp partials to add, while the partials are written per warpSize.
#include "check.cuh"

__global__ void BlockSum(const int* in, int* out) {
  __shared__ int partial[32];
  if (threadIdx.x < 32) partial[threadIdx.x] = 1000000;  // poison: a slot no warp wrote
  __syncthreads();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    const int warps = blockDim.x / 32;
    int total = 0;
    for (int w = 0; w < warps; ++w) total += partial[w];
    out[blockIdx.x] = total;
  }
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0, got = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>(kBlocks, 0));
  BlockSum<<<kBlocks, kBlock>>>(d_in, d_out);
  for (int x : ToHost(d_out, kBlocks)) got += x;
  return Verdict("k21_warps_per_block", got, want);
}
