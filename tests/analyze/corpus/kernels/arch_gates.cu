// Compute-capability specialisations.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

__device__ inline void atomic_add_half2(__half2* address, __half2 val) {
#if __CUDA_ARCH__ >= 600
  atomicAdd(address, val);
#else
  (void)address;
  (void)val;
#endif
}

__global__ void accumulate(__half2* acc, const __half2* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_add_half2(acc, in[i]);
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#define USE_LEGACY_SYNC 1
#endif

bool supports_tensor_cores(int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  if (prop.major >= 7) return true;
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  std::printf("device %d: %s, %d SMs\n", device, prop.name, prop.multiProcessorCount);
  return false;
}

__host__ __device__ int plain_helper(int x) {
#ifdef __CUDA_ARCH__
  return x + 1;
#else
  return x;
#endif
}
