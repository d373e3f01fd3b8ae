#pragma once
#include <cuda_runtime.h>

constexpr int kThreadsPerBlock = 256;

inline dim3 BlocksFor(int n) { return dim3((n + kThreadsPerBlock - 1) / kThreadsPerBlock); }

#define VECOPS_CHECK(call)                  \
  do {                                      \
    cudaError_t status_ = (call);           \
    if (status_ != cudaSuccess) return 1;   \
  } while (0)
