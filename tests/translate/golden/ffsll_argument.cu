// CUDA has only __ffsll(long long int); HIP also declares __ffsll(unsigned long long int), so a 32-bit argument
// is ambiguous in HIP (HeCBench btree-cuda): the argument is converted to long long, as CUDA converts it; a call
// whose argument is already 64-bit gets the same exact cast. The output must compile with hipcc.
// COMPILE: --offload-arch=gfx90a
#include <cuda_runtime.h>
__global__ void FirstSet(const unsigned* masks, const long long* wide, int* out) {
  const unsigned mask = masks[threadIdx.x];
  // CHECK: out[threadIdx.x] = __ffsll(static_cast<long long>(mask)) - 1;
  out[threadIdx.x] = __ffsll(mask) - 1;
  // CHECK: out[threadIdx.x] += __ffsll(static_cast<long long>(wide[threadIdx.x]));
  out[threadIdx.x] += __ffsll(wide[threadIdx.x]);
  // CHECK: out[threadIdx.x] += __ffs(mask);
  out[threadIdx.x] += __ffs(mask);
}
