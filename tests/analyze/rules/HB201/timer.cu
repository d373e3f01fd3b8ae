// HB201 golden input: %globaltimer -> wall_clock64() (HIP 5.3+, so not in the HIP 5.2 compile of input.cu).
#include <cuda_runtime.h>

__device__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
