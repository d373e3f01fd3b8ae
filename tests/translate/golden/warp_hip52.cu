// ARGS: --target-hip-version=5.2
// HIP 5.x has no *_sync warp intrinsics: a provably full mask is dropped; a shuffle's partial mask is dropped with
// a note (shown with -v: it only names the lanes taking part); a vote's partial mask is left for a person with a
// warning.
// STDERR: warning: '__ballot_sync' with mask 'mask'{{.*}}left for a person{{.*}}[TR006]
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff
__global__ void reduce(float* out, unsigned mask) {
  float value = out[threadIdx.x];
  // CHECK: value += __shfl_down(value, 16);
  value += __shfl_down_sync(0xffffffff, value, 16);
  // CHECK: value += __shfl_xor(value, 8, 32);
  value += __shfl_xor_sync(FULL_MASK, value, 8, 32);
  // CHECK: unsigned votes = __ballot(value > 0);
  unsigned votes = __ballot_sync(0xFFFFFFFFu, value > 0);
  // CHECK: value += __shfl_down(value, 1);
  value += __shfl_down_sync(mask, value, 1);
  // CHECK: unsigned some = __ballot_sync(mask, value > 1);
  unsigned some = __ballot_sync(mask, value > 1);
  out[threadIdx.x] = value + votes + some;
}
