// Inter-block signalling: a last-block reduction and a spin-wait.
#include <cuda_runtime.h>

__device__ unsigned int blocks_done = 0;
__device__ volatile int ready_flag = 0;

__global__ void sum_last_block(const float* in, float* partial, float* result, int n) {
  __shared__ bool am_last;
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  atomicAdd(&partial[blockIdx.x], v);
  __threadfence();
  if (threadIdx.x == 0) am_last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
  __syncthreads();
  if (am_last && threadIdx.x == 0) {
    float total = 0.f;
    for (int b = 0; b < gridDim.x; ++b) total += partial[b];
    *result = total;
  }
}

__global__ void producer_consumer(int* data) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x;
    __threadfence();
    if (threadIdx.x == 0) ready_flag = 1;
  } else {
    while (ready_flag == 0) {
    }
    data[blockDim.x + threadIdx.x] = data[threadIdx.x];
  }
}

__device__ int lock_word = 0;

__device__ void acquire() {
  while (atomicCAS(&lock_word, 0, 1) != 0) {
  }
}

__device__ float atomic_max_float(float* addr, float value) {
  int* as_int = reinterpret_cast<int*>(addr);
  int old = *as_int, assumed;
  do {
    assumed = old;
    old = atomicCAS(as_int, assumed, __float_as_int(fmaxf(value, __int_as_float(assumed))));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void block_local_sync(float* out) {
  __shared__ volatile int stage;
  if (threadIdx.x == 0) stage = 1;
  __syncthreads();
  while (stage == 0) {
  }
  out[threadIdx.x] = atomic_max_float(out, 1.0f);
  __threadfence_block();
}

__global__ void system_counter(int* host_visible) { atomicAdd_system(host_visible, 1); }
