// HB201 golden input: inline PTX (positives) and host-side asm (negatives).
#include <cuda_runtime.h>
#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))

__device__ unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ unsigned bfe(unsigned x) {
  unsigned r;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(x));
  return r;
}

__device__ void stop() { asm("trap;"); }

__global__ void kernel(unsigned* out) {
  unsigned r;
  LANE_ID(r);
  out[threadIdx.x] = lane_id() + bfe(r);
}

// Negatives: x86 host assembly.
static inline unsigned long long host_cycles() {
  unsigned lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
static inline void host_pause() { asm volatile("pause" ::: "memory"); }
