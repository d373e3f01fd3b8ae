// HB101: lane `% 32`, warp `/ 32`, per-warp partial sums written by each warp's lane 0.
#include "check.cuh"

__global__ void Partials(const int* in, int* partial) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  int v = in[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) partial[blockIdx.x * (kBlock / 32) + warp] = v;
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0, got = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  int* d_partial = ToDevice(std::vector<int>(kBlocks * (kBlock / 32), 0));
  Partials<<<kBlocks, kBlock>>>(d_in, d_partial);
  for (int x : ToHost(d_partial, kBlocks * (kBlock / 32))) got += x;
  return Verdict("k08_mod_div_32", got, want);
}
