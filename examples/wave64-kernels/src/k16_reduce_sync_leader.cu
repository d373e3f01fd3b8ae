// HB101: __reduce_add_sync over the warp, the result added by the lane `& 31` calls 0.
#include "check.cuh"

__global__ void Sum(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const int s = __reduce_add_sync(0xffffffff, in[i] + 50);
  if (lane == 0) atomicAdd(out, s);
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (int x : in) want += x + 50;
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>{0});
  Sum<<<kBlocks, kBlock>>>(d_in, d_out);
  return Verdict("k16_reduce_sync_leader", ToHost(d_out, 1)[0], want);
}
