// HB101: lane and warp ids from `& 31` and `>> 5` in a block reduction whose shuffles are already wave-size agnostic.
#include "check.cuh"

__global__ void BlockSum(const int* in, int* out) {
  __shared__ int partial[32];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w) total += partial[w];
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
  return Verdict("k02_lane_and_31", got, want);
}
