// ARGS: --target-hip-version=5.2
// A warp mask held in a local variable initialised to all ones and never changed is provably full, so the
// HIP 5.x call without mask is used; a vote whose mask changes is still reported and left alone.
// STDERR: warp_local_mask.cu:[[@LINE+15]]:20: warning: '__ballot_sync' with mask 'partial'{{.*}}[TR006]
#include <cuda_runtime.h>
__global__ void Vote(const int* in, int* out) {
  int mask = 0xffffffff;
  // CHECK: out[threadIdx.x] = __any(in[threadIdx.x]);
  out[threadIdx.x] = __any_sync(mask, in[threadIdx.x]);
  const unsigned full = 0xffffffffu;
  // CHECK: out[threadIdx.x] += __all(in[threadIdx.x]);
  out[threadIdx.x] += __all_sync(full, in[threadIdx.x]);
}
__global__ void Partial(float* data) {
  unsigned partial = 0xffffffff;
  if (threadIdx.x < 16) partial = 0x0000ffff;
  float value = data[threadIdx.x];
  // CHECK: unsigned votes = __ballot_sync(partial, value > 0);
  unsigned votes = __ballot_sync(partial, value > 0);
  data[threadIdx.x] = value + votes;
}
