// HB104 + lane 31: a warp-level inclusive scan (shfl_up loop to 32), the warp total taken from lane 31.
// hand fix (the to-do a person applies): the warp total is in the last lane of the wavefront

#include <hip/hip_runtime.h>
#include "check.cuh"

__global__ void BlockScanTotals(const int* in, int* totals) {
  __shared__ int warp_total[32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 1; d < warpSize; d *= 2) {
    const int up = __shfl_up(v, d);
    if (lane >= d) v += up;
  }
  if (lane == warpSize - 1) warp_total[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int t = 0;
    for (int w = 0; w < blockDim.x / warpSize; ++w) t += warp_total[w];
    totals[blockIdx.x] = t;
  }
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0, got = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  int* d_totals = ToDevice(std::vector<int>(kBlocks, 0));
  BlockScanTotals<<<kBlocks, kBlock>>>(d_in, d_totals);
  for (int x : ToHost(d_totals, kBlocks)) got += x;
  return Verdict("k15_scan_last_lane_31", got, want);
}
