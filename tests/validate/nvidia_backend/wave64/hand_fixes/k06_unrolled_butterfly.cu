// HB104 (unrolled): an all-reduce written out as five xor steps; every lane should hold the warp's maximum.
// hand fix (the to-do a person applies): HB104 unrolled chain rewritten as a loop from warpSize / 2

#include <hip/hip_runtime.h>
#include "check.cuh"

__global__ void WarpMax(const int* in, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int m = warpSize / 2; m > 0; m /= 2) v = max(v, __shfl_xor(v, m));
  out[i] = v;
}

int main() {
  const std::vector<int> in = Input();
  int* d_in = ToDevice(in);
  int* d_out = ToDevice(std::vector<int>(kN, 0));
  WarpMax<<<kBlocks, kBlock>>>(d_in, d_out);
  const std::vector<int> out = ToHost(d_out, kN);
  // Every lane of a group holds the group's maximum, for the width the GPU's warps (waves) have.
  int width = 32;
  hipDeviceGetAttribute(&width, hipDeviceAttributeWarpSize, 0);
  long long bad = 0;
  for (int g = 0; g < kN; g += width) {
    int m = in[g];
    for (int l = 1; l < width; ++l) m = std::max(m, in[g + l]);
    for (int l = 0; l < width; ++l) bad += out[g + l] != m;
  }
  return Verdict("k06_unrolled_butterfly (lanes without their warp's maximum)", bad, 0);
}
