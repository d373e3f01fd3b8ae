// HIP 6.4 (the default target) still has no cooperative_groups::reduce (checked: HIP 6.4.3's
// hip_cooperative_groups.h), but its tiles have meta_group_rank()/meta_group_size(): the reduce.h include becomes
// the HIP header plus the inline warp-tile shim, with a located note; the meta-group calls stay. The output must
// compile for gfx942 with HIP 6.4 (checked where that toolchain is present).
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// ARGS: -v
// STDERR: cooperative_groups_hip64.cu:[[@LINE+6]]:11: note: HIP 6.4 has no cooperative_groups::reduce{{.*}}[TR013]
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #ifndef HIPFORGE_CG_REDUCE_SHIM
// CHECK: #endif
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void RowSums(const float* in, float* out, int columns) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  // CHECK: int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < columns; i += warp.size()) sum += in[row * columns + i];
  // CHECK: sum = cg::reduce(warp, sum, cg::plus<float>{});
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  if (warp.thread_rank() == 0) out[row] = sum;
}
