// Stream compaction with warp ballots.
#include <cuda_runtime.h>
#include <cstdint>

__global__ void compact(const int* in, int* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] > 0;
  unsigned int mask = __ballot_sync(0xffffffff, keep);
  int lane = threadIdx.x % 32;
  int leader = __ffs(mask) - 1;
  int total = __popc(mask);
  int rank = __popc(mask & ((1u << lane) - 1));
  int base = 0;
  if (lane == leader) base = atomicAdd(count, total);
  base = __shfl_sync(0xffffffff, base, leader);
  if (keep) out[base + rank] = in[i];
}

__global__ void vote_any(const float* x, int* flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t active = __activemask();
  if (__any_sync(active, i < n && x[i] != x[i])) *flag = 1;
}

__global__ void vote_wide(const float* x, unsigned long long* masks, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long b = __ballot_sync(__activemask(), i < n && x[i] > 0.f);
  uint64_t active = __activemask();
  if (threadIdx.x % warpSize == 0) masks[i / warpSize] = b & active;
  int votes = __popcll(b);
  if (votes < 0) masks[0] = 0;
}
