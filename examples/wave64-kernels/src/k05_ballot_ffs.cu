// HB103: __ffs of a 32-bit ballot picks the first lane of the warp holding an element below -48 (rare); that lane's index
// is recorded once per warp. Host check: the sum of the first negative positions per warp-sized group.
#include "check.cuh"

__global__ void FirstNegative(const int* in, long long* sum_of_firsts, int* groups) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned votes = __ballot_sync(0xffffffff, in[i] < -48);
  const int first = __ffs(votes) - 1;
  if (threadIdx.x % warpSize == 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(sum_of_firsts), static_cast<long long>(first));
    atomicAdd(groups, 1);
  }
}

int main() {
  const std::vector<int> in = Input();
  int* d_in = ToDevice(in);
  long long* d_sum = ToDevice(std::vector<long long>{0});
  int* d_groups = ToDevice(std::vector<int>{0});
  FirstNegative<<<kBlocks, kBlock>>>(d_in, d_sum, d_groups);
  const int groups = ToHost(d_groups, 1)[0];
  const int width = kN / groups;  // the warp (or wave) size the GPU ran with
  long long want = 0;
  for (int g = 0; g < groups; ++g) {
    int first = -1;
    for (int l = 0; l < width; ++l) {
      if (in[g * width + l] < -48) { first = l; break; }
    }
    want += first;
  }
  return Verdict("k05_ballot_ffs", ToHost(d_sum, 1)[0], want);
}
