// Cooperative groups table: the includes (scan.h joins the one HIP header), groups, tiles and partitions; an
// API HIP lacks stays, with a located warning. (reduce.h and cg::reduce get an inline shim instead:
// cooperative_groups_hip52.cu, cooperative_groups_hip64.cu.)
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>
// CHECK-NOT: #include <cooperative_groups/scan.h>
// CHECK-NOT: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void Sum(const float* in, float* out) {
  // CHECK: cg::thread_block block = cg::this_thread_block();
  cg::thread_block block = cg::this_thread_block();
  // CHECK: cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float value = in[block.thread_rank()];
  // STDERR: cooperative_groups.cu:[[@LINE+2]]:15: warning: 'cooperative_groups::inclusive_scan' is unsupported in 'HIP'. [TR001]
  // CHECK: value = cg::inclusive_scan(warp, value);
  value = cg::inclusive_scan(warp, value);
  if (warp.thread_rank() == 0) atomicAdd(out, value);
  // CHECK: cg::sync(block);
  cg::sync(block);
}
