// HB106 golden input: lane ids read from PTX %laneid (HB201 rewrites them to __lane_id(), 0..63 on a 64-wide
// wavefront) and computed or checked with 32-lane constants, on the device and on the host (issue 29: the host
// check kept `% 32`, silently). Negatives stay silent: loop bounds, other functions' variables, files without
// %laneid (none.cu).
#include <cstdio>
#include <cuda_runtime.h>
#define LANE_ID(r) (r) = __lane_id()

__device__ unsigned lane_id() {
  unsigned r;
  (r) = __lane_id();
  return r;
}

__global__ void lanes(unsigned* out, unsigned* last) {
  const unsigned lane = lane_id();
  out[threadIdx.x] = lane;
  if (lane == 31) last[blockIdx.x] = threadIdx.x;
  if (lane_id() < 32) out[0] += 1;
  for (int i = 0; i < 32; ++i) out[1] += i;
}

__global__ void through_macro(unsigned* out) {
  unsigned mine;
  LANE_ID(mine);
  if (mine >= 32) out[0] = 1;
  out[threadIdx.x] = threadIdx.x & 31;
}

__global__ void other(unsigned* out, unsigned r) {
  if (r < 32) out[0] = r;
}

// The host's check of what `lanes` wrote (copied back from the device).
int check(const unsigned* host, unsigned n) {
  for (unsigned i = 0; i < n; ++i) {
    if (host[i] != i % 32) {
      std::printf("lane %u: %u\n", i, host[i]);
      return 1;
    }
  }
  std::printf("PASS\n");
  return 0;
}
