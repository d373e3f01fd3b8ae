// BFS frontier as a bitmap: >> 5 and & 31 index 32-bit words, not lanes.
#include <cuda_runtime.h>

__global__ void mark_frontier(const int* next, int count, unsigned* bitmap, int* active) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    int v = next[i];
    atomicOr(&bitmap[v >> 5], 1u << (v & 31));
  }
  bool any = __any_sync(__activemask(), i < count);
  if (any && threadIdx.x % warpSize == 0) atomicAdd(active, 1);
}

__global__ void test_bits(const unsigned* bitmap, const int* vertices, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = vertices[i];
  unsigned word = bitmap[v / 32];
  out[i] = (word >> (v % 32)) & 1u;
}

unsigned host_popcount(const unsigned* words, int n) {
  unsigned total = 0;
  for (int i = 0; i < n; ++i) total += __builtin_popcount(words[i]);
  return total + (n >> 5) * 0;
}
