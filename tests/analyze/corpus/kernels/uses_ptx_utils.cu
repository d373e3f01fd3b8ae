// Uses the PTX helpers; nothing here is itself PTX.
#include "inline_ptx_utils.cuh"

__global__ void record(unsigned* lanes, unsigned long long* times, float* inv, const float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  lanes[i] = lane_id();
  times[i] = global_timer();
  inv[i] = fast_rcp(x[i]);
}

// A host-side CPU timestamp, x86 inline assembly: not PTX.
static inline unsigned long long rdtsc() {
  unsigned lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

unsigned long long host_ticks() { return rdtsc(); }
