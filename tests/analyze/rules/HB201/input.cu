// HB201 golden input: inline PTX. Idioms with an exact HIP equivalent are rewritten (fixed.cu); the rest is
// reported with its instructions named (person.cu); host-side asm (negatives) stays silent.
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

__device__ unsigned bfi(unsigned field, unsigned base) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(field), "r"(base), "n"(8), "n"(4));
  return r;
}

__device__ unsigned majority(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

__device__ unsigned long long timers(float* out, const float* in, unsigned sel) {
  unsigned long long t0, t1;
  unsigned c32, perm, bits, zeros;
  float v, f;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
  t1 = 0;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c32));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(perm) : "r"(c32), "r"(sel), "r"(0x3210u));
  asm("brev.b32 %0, %1;" : "=r"(bits) : "r"(perm));
  asm("popc.b32 %0, %1;" : "=r"(zeros) : "r"(bits));
  asm("clz.b32 %0, %1;" : "=r"(zeros) : "r"(zeros));
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + 1));
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(v), "f"(2.0f), "f"(1.0f));
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(v) : "f"(f), "r"(1));
  asm volatile("membar.gl;" ::: "memory");
  out[0] = v;
  return t0 + t1 + zeros;
}

__device__ void stop() { asm("trap;"); }

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
