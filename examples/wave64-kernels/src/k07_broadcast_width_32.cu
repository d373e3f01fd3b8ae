// HB104 (width 32): the warp leader reserves room for its warp's elements and broadcasts the base with width 32.
#include "check.cuh"

__global__ void Reserve(const int* in, int* cursor, long long* checksum) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  int base = 0;
  if (lane == 0) base = atomicAdd(cursor, warpSize);
  base = __shfl_sync(0xffffffff, base, 0, 32);
  // Each element's slot: base + lane. Slots must be a permutation of 0..N-1.
  atomicAdd(reinterpret_cast<unsigned long long*>(checksum), static_cast<long long>(base + lane) * (base + lane));
  (void)in[i];
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (long long s = 0; s < kN; ++s) want += s * s;
  int* d_in = ToDevice(in);
  int* d_cursor = ToDevice(std::vector<int>{0});
  long long* d_sum = ToDevice(std::vector<long long>{0});
  Reserve<<<kBlocks, kBlock>>>(d_in, d_cursor, d_sum);
  return Verdict("k07_broadcast_width_32 (sum of squared slots)", ToHost(d_sum, 1)[0], want);
}
