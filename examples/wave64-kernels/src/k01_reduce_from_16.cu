// HB104: a warp reduction whose shuffle loop starts at 16 (32 lanes), the lane test already wave-size agnostic.
#include "check.cuh"

__global__ void Sum(const int* in, long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % warpSize == 0) atomicAdd(reinterpret_cast<unsigned long long*>(out), static_cast<long long>(v));
}

int main() {
  const std::vector<int> in = Input();
  long long want = 0;
  for (int x : in) want += x;
  int* d_in = ToDevice(in);
  long long* d_out = ToDevice(std::vector<long long>{0});
  Sum<<<kBlocks, kBlock>>>(d_in, d_out);
  return Verdict("k01_reduce_from_16", ToHost(d_out, 1)[0], want);
}
