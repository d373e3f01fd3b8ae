// HB104 (shfl_xor 16 as "the other half-warp"): pairs element l with l^16 inside each warp and keeps the larger.
// Every lane should hold the maximum of its group of 32 after the exchange with its partner half... for 32 lanes:
// a group here is the warp, so the host check uses the GPU's warp (wave) size.
#include "check.cuh"

__global__ void HalfMax(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int mask = 1; mask < 32; mask <<= 1) v = max(v, __shfl_xor_sync(0xffffffff, v, mask));
  out[i] = v;
}

int main() {
  const std::vector<int> in = Input();
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>(kN, 0));
  HalfMax<<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<int> out = ToHost(d_out, kN);
  int width = 32;
  cudaDeviceGetAttribute(&width, cudaDevAttrWarpSize, 0);
  long long bad = 0;
  for (int g = 0; g < kN; g += width) {
    int m = in[g];
    for (int l = 1; l < width; ++l) m = std::max(m, in[g + l]);
    for (int l = 0; l < width; ++l) bad += out[g + l] != m;
  }
  return Verdict("k22_xor_loop_to_32 (lanes without their warp's maximum)", bad, 0);
}
