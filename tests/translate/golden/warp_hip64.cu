// HIP 6.2+ (default target 6.4) has the *_sync intrinsics: calls stay as written.
#include <cuda_runtime.h>
__global__ void reduce(float* out) {
  float value = out[threadIdx.x];
  // CHECK: value += __shfl_down_sync(0xffffffff, value, 16);
  value += __shfl_down_sync(0xffffffff, value, 16);
  // CHECK: unsigned votes = __ballot_sync(0xffffffff, value > 0);
  unsigned votes = __ballot_sync(0xffffffff, value > 0);
  out[threadIdx.x] = value + votes;
}
