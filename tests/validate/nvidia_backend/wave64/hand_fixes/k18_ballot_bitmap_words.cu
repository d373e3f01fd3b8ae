// 32 by design: a bitmap of 32-bit words, bit i of word w = predicate of element 32*w + i (the host reads it so).
// hand fix (the to-do a person applies): 32-bit words by design: each 32-lane half stores its own word of the ballot
// On a 64-wide wave the ballot holds two words; each half must store its own.

#include <hip/hip_runtime.h>
#include "check.cuh"

__global__ void Bitmap(const int* in, unsigned* words) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long votes = __ballot(in[i] > 0);
  if (i % 32 == 0) words[i / 32] = static_cast<unsigned>(votes >> ((i % warpSize) & ~31));
}

int main() {
  const std::vector<int> in = Input();
  int* d_in = ToDevice(in);
  unsigned* d_words = ToDevice(std::vector<unsigned>(kN / 32, 0));
  Bitmap<<<kBlocks, kBlock>>>(d_in, d_words);
  const std::vector<unsigned> words = ToHost(d_words, kN / 32);
  long long bad = 0;
  for (int i = 0; i < kN; ++i) bad += static_cast<bool>((words[i / 32] >> (i % 32)) & 1u) != (in[i] > 0);
  return Verdict("k18_ballot_bitmap_words (wrong bits)", bad, 0);
}
