#pragma once
#include <cstdio>
#include <cuda_runtime.h>
// The project's own error-check macro: a CUDA-looking name that is not a CUDA API.
#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t status_ = (call);                                             \
    if (status_ != cudaSuccess) std::printf("%s\n", cudaGetErrorString(status_)); \
  } while (0)
