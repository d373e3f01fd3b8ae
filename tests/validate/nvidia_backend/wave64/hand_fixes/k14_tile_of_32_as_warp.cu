// HB105: a cooperative-groups tile of 32 used as "the warp", next to a warp index computed from warpSize.
// hand fix (the to-do a person applies): HB105 the partial belongs to the 32-thread tile, not the wavefront

#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>

#include "check.cuh"
namespace cg = cooperative_groups;

__global__ void Partials(const int* in, int* partial) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warp.size() / 2; offset > 0; offset /= 2) v += warp.shfl_down(v, offset);
  const int warp_id = threadIdx.x / 32;
  if (warp.thread_rank() == 0) partial[blockIdx.x * (kBlock / 32) + warp_id] = v;
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0, got = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  int* d_partial = ToDevice(std::vector<int>(kBlocks * (kBlock / 32), 0));
  Partials<<<kBlocks, kBlock>>>(d_in, d_partial);
  for (int x : ToHost(d_partial, kBlocks * (kBlock / 32))) got += x;
  return Verdict("k14_tile_of_32_as_warp", got, want);
}
