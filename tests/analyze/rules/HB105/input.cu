// HB105 golden input: cooperative-group tiles of 32.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define TILE 32
#define HALF 16

__global__ void tiles(float* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  auto other = cg::tiled_partition<TILE>(block);
  cg::thread_group dynamic = cg::tiled_partition(block, 32);
  // Negatives: sub-warp tiles.
  auto quarter = cg::tiled_partition<8>(block);
  auto half = cg::tiled_partition<HALF>(block);
  out[block.thread_rank()] = warp.thread_rank() + other.thread_rank() + dynamic.size() + quarter.size() + half.size();
}
