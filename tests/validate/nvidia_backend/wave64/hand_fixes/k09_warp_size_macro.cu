// HB101 (macro): WARP_SIZE 32 everywhere, consistently: lane, shuffle start, leader.
// hand fix (the to-do a person applies): HB101 WARP_SIZE is the wavefront (only run-time uses here)

#include <hip/hip_runtime.h>
#include "check.cuh"

#define WARP_SIZE warpSize

__global__ void Sum(const int* in, long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % WARP_SIZE;
  int v = in[i];
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (lane == 0) atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<long long>(v));
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  long long* d_out = ToDevice(std::vector<long long>{0});
  Sum<<<kBlocks, kBlock>>>(d_in, d_out);
  return Verdict("k09_warp_size_macro", ToHost(d_out, 1)[0], want);
}
