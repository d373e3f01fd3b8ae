// HB406 golden input: memory-ordering assumptions.
#include <cuda_runtime.h>

__device__ unsigned int blocks_done = 0;

__global__ void last_block_sums(float* partial, float* result, volatile int* flag) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 1.0f;
    __threadfence();
    unsigned int ticket = atomicAdd(&blocks_done, 1);
    if (ticket == gridDim.x - 1) *result = partial[0];
  }
  if (blockIdx.x == 1) {
    while (*flag == 0) {
    }
  }
  atomicAdd_system(result, 1.0f);
}

__global__ void spin_lock(int* lock, float* data) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  data[0] += 1.0f;
  atomicExch(lock, 0);
}

// Negatives: block-local synchronization and volatile shared memory.
__global__ void block_local(float* out) {
  __shared__ volatile int ready;
  if (threadIdx.x == 0) ready = 1;
  __syncthreads();
  while (ready == 0) {
  }
  volatile float* s = out;
  out[threadIdx.x] = s[0] + atomicAdd(&out[1], 1.0f);
}
