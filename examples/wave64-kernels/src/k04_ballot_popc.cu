// HB103: a ballot kept in 32 bits and counted with __popc: how many elements of each warp are positive.
#include "check.cuh"

__global__ void CountPositive(const int* in, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned votes = __ballot_sync(0xffffffff, in[i] > 0);
  if (threadIdx.x % warpSize == 0) atomicAdd(count, __popc(votes));
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (int x : in) want += x > 0;
  int* d_in = ToDevice(in);
  int* d_count = ToDevice(std::vector<int>{0});
  CountPositive<<<kBlocks, kBlock>>>(d_in, d_count);
  return Verdict("k04_ballot_popc", ToHost(d_count, 1)[0], want);
}
