// HB201 golden input: inline PTX. Idioms with an exact HIP equivalent are rewritten (fixed.cu); the rest is
// reported with its instructions named (person.cu); host-side asm (negatives) stays silent.
#include <cuda_runtime.h>
#define LANE_ID(r) (r) = __lane_id()

__device__ unsigned lane_id() {
  unsigned r;
  (r) = __lane_id();
  return r;
}

__device__ unsigned bfe(unsigned x) {
  unsigned r;
  (r) = (static_cast<unsigned int>((x)) >> 4) & 0xffu;
  return r;
}

__device__ unsigned bfi(unsigned field, unsigned base) {
  unsigned r;
  (r) = (static_cast<unsigned int>((base)) & 0xfffff0ffu) | ((static_cast<unsigned int>((field)) << 8) & 0xf00u);
  return r;
}

__device__ unsigned majority(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  (r) = (~static_cast<unsigned int>((a)) & static_cast<unsigned int>((b)) & static_cast<unsigned int>((c))) | (static_cast<unsigned int>((a)) & ~static_cast<unsigned int>((b)) & static_cast<unsigned int>((c))) | (static_cast<unsigned int>((a)) & static_cast<unsigned int>((b)) & ~static_cast<unsigned int>((c))) | (static_cast<unsigned int>((a)) & static_cast<unsigned int>((b)) & static_cast<unsigned int>((c)));
  return r;
}

__device__ unsigned long long timers(float* out, const float* in, unsigned sel) {
  unsigned long long t0, t1;
  unsigned c32, perm, bits, zeros;
  float v, f;
  (t0) = clock64();
  t1 = 0;
  (c32) = static_cast<unsigned int>(clock64());
  (perm) = __byte_perm((c32), (sel), (0x3210u));
  (bits) = __brev((perm));
  (zeros) = __popc((bits));
  (zeros) = __clz((zeros));
  (v) = __ldg(reinterpret_cast<const float*>((in + 1)));
  (f) = __fmaf_rn((v), (2.0f), (1.0f));
  (v) = __shfl_xor((f), (1), 32);
  __threadfence();
  out[0] = v;
  return t0 + t1 + zeros;
}

__device__ void stop() { __builtin_trap(); }

__global__ void kernel(unsigned* out, float* f, const float* in) {
  unsigned r;
  LANE_ID(r);
  out[threadIdx.x] = lane_id() + bfe(r) + bfi(r, 7) + majority(r, 1, 2);
  out[0] += static_cast<unsigned>(timers(f, in, r));
  if (r > 100) stop();
}

// Negatives: x86 host assembly.
static inline unsigned long long host_cycles() {
  unsigned lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
static inline void host_pause() { asm volatile("pause" ::: "memory"); }
