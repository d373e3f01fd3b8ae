// HB103 + a 32-bit lane mask: stream compaction with a ballot, __popc of the lanes below, one atomic per warp.
// hand fix (the to-do a person applies): the lanes-below mask is 64-bit too

#include <hip/hip_runtime.h>
#include "check.cuh"

__global__ void Compact(const int* in, int* out, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const bool keep = in[i] > 10;
  unsigned long long votes = __ballot(keep);
  const int below = __popcll(votes & ((1ull << lane) - 1));
  int base = 0;
  if (lane == 0) base = atomicAdd(count, __popcll(votes));
  base = __shfl(base, 0);
  if (keep) out[base + below] = in[i];
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0, got = 0;
  int kept = 0;
  for (int x : in) {
    if (x > 10) want += x, ++kept;
  }
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>(kN, 0));
  int* d_count = ToDevice(std::vector<int>{0});
  Compact<<<kBlocks, kBlock>>>(d_in, d_out, d_count);
  const int count = ToHost(d_count, 1)[0];
  for (int x : ToHost(d_out, kN)) got += x;
  return Verdict("k11_ballot_compaction (sum of kept, count must match)", count == kept ? got : -1, want);
}
