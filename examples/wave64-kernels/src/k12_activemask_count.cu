// HB103: the active lanes counted with __popc(__activemask()) inside a branch, kept in 32 bits.
#include "check.cuh"

__global__ void CountInBranch(const int* in, int* count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] % 3 != 0) {
    unsigned active = __activemask();
    const int leader = __ffs(active) - 1;
    if (threadIdx.x % warpSize == leader) atomicAdd(count, __popc(active));
  }
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (int x : in) want += x % 3 != 0;
  int* d_in = ToDevice(in);
  int* d_count = ToDevice(std::vector<int>{0});
  CountInBranch<<<kBlocks, kBlock>>>(d_in, d_count);
  return Verdict("k12_activemask_count", ToHost(d_count, 1)[0], want);
}
