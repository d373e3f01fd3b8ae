// Cooperative-groups reductions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void cg_sum(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  float v = i < n ? in[i] : 0.0f;
  v = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) atomicAdd(out, v);
}

__global__ void cg_small_tiles(const int* in, int* out) {
  auto block = cg::this_thread_block();
  auto quad = cg::tiled_partition<4>(block);
  auto sixteen = cg::tiled_partition<16>(block);
  int v = in[block.thread_rank()];
  for (int o = quad.size() / 2; o > 0; o /= 2) v += quad.shfl_down(v, o);
  v += sixteen.shfl_xor(v, 8);
  out[block.thread_rank()] = v;
}

__global__ void cg_dynamic(float* data) {
  auto block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, 32);
  data[block.thread_rank()] += tile.thread_rank();
}
