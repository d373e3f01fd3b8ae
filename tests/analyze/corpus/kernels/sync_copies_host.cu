// Synchronous copies and host-side arithmetic with 32: nothing here is a porting hazard.
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>

int plan_blocks(int n) {
  int threads = 32;
  int warps_per_block = 256 / 32;
  return (n + threads * warps_per_block - 1) / (threads * warps_per_block);
}

void roundtrip(float* d, size_t n) {
  float* h = static_cast<float*>(malloc(n * sizeof(float)));
  std::memset(h, 0, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  free(h);
}

unsigned hash32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352d;
  x ^= x >> 15;
  return x & 0xffffffff;
}
