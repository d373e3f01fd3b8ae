// Buffers passed through helpers and struct members.
#include <cuda_runtime.h>
#include <cstdlib>

struct HostStaging {
  float* pinned = nullptr;
  float* scratch = nullptr;
  size_t count = 0;
};

static void copy_in(float* dst, const float* src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyHostToDevice, s);
}

void stage_pageable(float* d, size_t n, cudaStream_t s) {
  float* host = static_cast<float*>(calloc(n, sizeof(float)));
  copy_in(d, host, n, s);
  cudaStreamSynchronize(s);
  free(host);
}

void make_staging(HostStaging& st, size_t n) {
  st.count = n;
  cudaHostAlloc(reinterpret_cast<void**>(&st.pinned), n * sizeof(float), cudaHostAllocDefault);
  st.scratch = static_cast<float*>(malloc(n * sizeof(float)));
}

void upload_staging(const HostStaging& st, float* d, cudaStream_t s) {
  cudaMemcpyAsync(d, st.pinned, st.count * sizeof(float), cudaMemcpyHostToDevice, s);
}

void upload_unknown(float* d, const float* from_caller, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(d, from_caller, n * sizeof(float), cudaMemcpyHostToDevice, s);
}
