// Cost of the wave64 mode (docs/wave64.md) on wavefront-heavy kernels: the same HIP source built for sm_90 and for
// sm_90:wave64 (tests/validate/nvidia_backend/wave64/wave64_check.sh builds both). Prints ms per launch.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void ReduceShuffle(const float* in, float* out, int n) {
  float v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}

__global__ void ShuffleHeavy(float* data, int n, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = data[i];
  for (int r = 0; r < rounds; ++r) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor(v, offset) * 0.5f;
  }
  data[i] = v;
}

__global__ void BallotCount(const float* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long votes = __ballot(i < n && in[i] > 0.5f);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(votes));
}

template <typename Launch>
float Time(Launch launch) {
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  launch();
  hipEventRecord(start);
  for (int r = 0; r < 10; ++r) launch();
  hipEventRecord(stop);
  hipEventSynchronize(stop);
  float ms = 0;
  hipEventElapsedTime(&ms, start, stop);
  return ms / 10;
}

int main() {
  const int n = 1 << 26;
  float *in, *out;
  int* count;
  hipMalloc(&in, n * sizeof(float));
  hipMalloc(&out, sizeof(float));
  hipMalloc(&count, sizeof(int));
  hipMemset(in, 0, n * sizeof(float));
#if defined(HIPFORGE_WAVE64_ACTIVE)
  const char* mode = "sm_90:wave64";
#else
  const char* mode = "sm_90";
#endif
  const float reduce = Time([&] { hipLaunchKernelGGL(ReduceShuffle, dim3(1320), dim3(256), 0, 0, in, out, n); });
  const float heavy = Time([&] { hipLaunchKernelGGL(ShuffleHeavy, dim3(n / 256), dim3(256), 0, 0, in, n, 8); });
  const float ballot = Time([&] { hipLaunchKernelGGL(BallotCount, dim3(n / 256), dim3(256), 0, 0, in, count, n); });
  const hipError_t status = hipDeviceSynchronize();
  std::printf("overhead %-13s grid-stride reduce %8.3f ms | 48 xor shuffles/thread %8.3f ms | ballot %8.3f ms (%s)\n",
              mode, reduce, heavy, ballot, hipGetErrorString(status));
  return status == hipSuccess ? 0 : 1;
}
