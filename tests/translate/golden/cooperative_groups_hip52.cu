// ARGS: --target-hip-version=5.2
// HIP 5.2 has no cooperative_groups::reduce and no tile meta_group_rank()/meta_group_size(): the reduce.h
// include becomes the HIP header plus an inline warp-tile shim, and the meta-group calls are computed from the
// thread block; each is reported as a located note.
// STDERR: cooperative_groups_hip52.cu:[[@LINE+6]]:11: note: HIP 5.2 has no cooperative_groups::reduce{{.*}}[TR013]
// ARGS: -v
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #ifndef HIPFORGE_CG_REDUCE_SHIM
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void RowSums(const float* in, float* out, int columns) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  // CHECK: int row = blockIdx.x * ((cooperative_groups::this_thread_block().size() + warp.size() - 1) / warp.size()) + (cooperative_groups::this_thread_block().thread_rank() / warp.size());
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < columns; i += warp.size()) sum += in[row * columns + i];
  // CHECK: sum = cg::reduce(warp, sum, cg::plus<float>{});
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  if (warp.thread_rank() == 0) out[row] = sum;
}
