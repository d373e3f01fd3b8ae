// vector_stats: element-wise and reduction kernels over float vectors.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

// The kernels below were written for NVIDIA GPUs, where a warp always has 32 lanes.
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu
#define BLOCK_THREADS 256

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    cudaError_t status_ = (call);                                                         \
    if (status_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,           \
                   cudaGetErrorString(status_));                                          \
      std::exit(EXIT_FAILURE);                                                            \
    }                                                                                     \
  } while (0)

// out[i] = a * x[i] + y[i]
__global__ void saxpy(int n, float a, const float* x, const float* y, float* out);

// Adds each block's partial sum of x into *total (one atomicAdd per block).
__global__ void sum_reduce(int n, const float* x, float* total);

// Adds each block's partial dot product of x and y into *total.
__global__ void dot_product(int n, const float* x, const float* y, float* total);

// Counts values per bucket of width `bucket_width`, starting at 0; values outside are clamped.
__global__ void histogram(int n, const float* x, float bucket_width, int buckets, unsigned int* counts);

// Host-side helpers used by the checks in main.cu.
float host_sum(int n, const float* x);
float host_dot(int n, const float* x, const float* y);
