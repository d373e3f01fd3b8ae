// Shared by the wave64 kernel set: deterministic input, a device buffer, one PASS/FAIL line per program.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                   \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));                         \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

constexpr int kBlock = 256;
constexpr int kBlocks = 64;
constexpr int kN = kBlock * kBlocks;

inline std::vector<int> Input() {
  std::vector<int> v(kN);
  for (int i = 0; i < kN; ++i) v[i] = (i * 37 + 11) % 101 - 50;
  return v;
}

template <typename T>
T* ToDevice(const std::vector<T>& host) {
  T* device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, host.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

template <typename T>
std::vector<T> ToHost(const T* device, size_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

inline int Verdict(const char* name, long long got, long long want) {
  std::printf("%s %s: got %lld, want %lld\n", got == want ? "PASS" : "FAIL", name, got, want);
  return got == want ? 0 : 1;
}
