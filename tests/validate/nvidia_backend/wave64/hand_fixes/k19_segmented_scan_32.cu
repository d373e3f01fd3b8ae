// 32 by design: an inclusive scan of 32-element segments (width 32); the host checks each segment on its own.
// hand fix (the to-do a person applies): 32-element segments by design: lane, bound and width stay 32

#include <hip/hip_runtime.h>
#include "check.cuh"

__global__ void SegmentScan(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int v = in[i];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up(v, d, 32);
    if (lane >= d) v += up;
  }
  out[i] = v;
}

int main() {
  const std::vector<int> in = Input();
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>(kN, 0));
  SegmentScan<<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<int> out = ToHost(d_out, kN);
  long long bad = 0;
  for (int s = 0; s < kN; s += 32) {
    int acc = 0;
    for (int l = 0; l < 32; ++l) bad += out[s + l] != (acc += in[s + l]);
  }
  return Verdict("k19_segmented_scan_32 (wrong prefix sums)", bad, 0);
}
