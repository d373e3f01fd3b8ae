// Cooperative groups table: the includes (reduce.h joins the one HIP header), groups, tiles and partitions; an
// API HIP lacks stays, with a located warning.
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>
// CHECK-NOT: #include <cooperative_groups/reduce.h>
// CHECK-NOT: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void Sum(const float* in, float* out) {
  // CHECK: cg::thread_block block = cg::this_thread_block();
  cg::thread_block block = cg::this_thread_block();
  // CHECK: cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float value = in[block.thread_rank()];
  // STDERR: cooperative_groups.cu:[[@LINE+2]]:15: warning: 'cooperative_groups::reduce' is unsupported in 'HIP'. [TR001]
  // CHECK: value = cg::reduce(warp, value, cg::plus<float>());
  value = cg::reduce(warp, value, cg::plus<float>());
  if (warp.thread_rank() == 0) atomicAdd(out, value);
  // CHECK: cg::sync(block);
  cg::sync(block);
}
