// HB103 golden input: ballot results kept in 32 bits or counted with 32-bit bit operations.
#include <cuda_runtime.h>
#define LOW_HALF 0xffffu

__global__ void count_positive(const float* in, int* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned int votes = __ballot_sync(__activemask(), v > 0.0f);
  int count = __popc(votes);
  int first = __ffs(__ballot_sync(__activemask(), v < 0.0f));
  // A mask narrowed by an expression stays 32-bit; HIP overloads __ffsll, so it gets the argument converted.
  unsigned int low = __ballot_sync(__activemask(), v > 4.0f) & 0xffffu;
  int lowest = __ffs(low);
  int lowest_masked = __ffs(low & LOW_HALF);  // a macro in the argument
  // Negatives: 64-bit storage, auto, and a ballot only tested for zero.
  unsigned long long wide = __ballot_sync(__activemask(), v > 1.0f);
  auto deduced = __ballot_sync(__activemask(), v > 2.0f);
  bool any_big = __ballot_sync(__activemask(), v > 3.0f) != 0;
  int bits = __popc(static_cast<unsigned int>(blockIdx.x));
  out[threadIdx.x] = count + first + (wide != 0) + (deduced != 0) + any_big + bits + lowest + lowest_masked;
}

// A 32-bit lane bit beside a ballot (the lanes below) is computed in 64 bits; one beside a plain integer stays.
__global__ void lanes_below(const int* in, int* out) {
  const int lane = threadIdx.x % warpSize;
  unsigned long long votes = __ballot_sync(__activemask(), in[threadIdx.x] > 0);
  int below = __popcll(votes & ((1u << lane) - 1));
  unsigned flags = in[0] & (1u << lane);
  out[threadIdx.x] = below + flags;
}

// A ballot stored in a 32-bit word of a bitmap: reported, a person picks each half's word.
__global__ void bitmap(const int* in, unsigned* words) {
  unsigned long long votes = __ballot_sync(__activemask(), in[threadIdx.x] > 0);
  if (threadIdx.x % 32 == 0) words[threadIdx.x / 32] = votes;
}

// A mask declared apart from its assignment (HeCBench atomicAggregate): the declaration is widened, and what is
// computed from it follows.
__global__ void leader_of_matches(int* ptr, int* out) {
  int mask;
  unsigned long long votes = __ballot_sync(__activemask(), ptr[threadIdx.x] > 0);
  mask = votes;
  const int lane = threadIdx.x % warpSize;
  out[threadIdx.x] = __popc(mask & ((1 << lane) - 1)) + __ffs(mask);
}
