// HIP 6.2+ (default target 6.4) has the *_sync intrinsics, but static_asserts a 64-bit mask (a wavefront has up
// to 64 lanes): a provably full mask becomes all lanes; any other mask keeps its bits, widened.
#include <cuda_runtime.h>
#define FULL_MASK 0xffffffff
__global__ void reduce(float* out, unsigned mask) {
  float value = out[threadIdx.x];
  // CHECK: value += __shfl_down_sync(0xffffffffffffffffull, value, 16);
  value += __shfl_down_sync(0xffffffff, value, 16);
  // CHECK: value += __shfl_xor_sync(0xffffffffffffffffull, value, 8);
  value += __shfl_xor_sync(FULL_MASK, value, 8);
  // CHECK: unsigned votes = __ballot_sync(0xffffffffffffffffull, value > 0);
  unsigned votes = __ballot_sync(0xffffffff, value > 0);
  // CHECK: value += __shfl_up_sync(static_cast<unsigned long long>(mask), value, 1);
  value += __shfl_up_sync(mask, value, 1);
  // CHECK: value += __shfl_sync(0xffffffffffffffffull, value, 0);
  value += __shfl_sync(0xffffffffffffffffull, value, 0);
  out[threadIdx.x] = value + votes;
}
