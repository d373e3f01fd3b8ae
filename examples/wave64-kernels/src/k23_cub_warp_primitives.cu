// Warp-width agnostic, through CUB: cub::WarpReduce / cub::WarpScan with their default width (the warp), partials
// per warpSize. Right on both widths as written; under wave64 hipCUB's default width is the wavefront's 64.
#include <cub/cub.cuh>

#include "check.cuh"

__global__ void BlockSumAndScan(const int* in, int* out, int* bad_prefixes) {
  using Reduce = cub::WarpReduce<int>;
  using Scan = cub::WarpScan<int>;
  __shared__ typename Reduce::TempStorage reduce_storage[32];
  __shared__ typename Scan::TempStorage scan_storage[32];
  __shared__ int partial[32];
  const int lane = threadIdx.x % warpSize;
  const int warp = threadIdx.x / warpSize;
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int sum = Reduce(reduce_storage[warp]).Sum(v);
  if (lane == 0) partial[warp] = sum;
  int prefix = 0;
  Scan(scan_storage[warp]).InclusiveSum(1, prefix);
  if (prefix != lane + 1) atomicAdd(bad_prefixes, 1);
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
  int* d_bad = ToDevice(std::vector<int>{0});
  BlockSumAndScan<<<kBlocks, kBlock>>>(d_in, d_out, d_bad);
  for (int x : ToHost(d_out, kBlocks)) got += x;
  const int bad = ToHost(d_bad, 1)[0];
  return Verdict("k23_cub_warp_primitives (block sums; wrong prefixes add 1000000 each)", got + 1000000LL * bad, want);
}
