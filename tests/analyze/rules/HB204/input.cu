// HB204 golden input: compute-capability gates.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void kernel(float* out) {
#if __CUDA_ARCH__ >= 700
  out[threadIdx.x] = 1.0f;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 600)
  out[threadIdx.x] = 2.0f;
#endif
#ifdef __CUDA_ARCH__
  out[threadIdx.x] += 1.0f;
#endif
}

struct Version { int major; int minor; };

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  if (prop.major >= 7) printf("tensor cores\n");
  int cc_major = 0;
  cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0);
  // Negatives: printing the capability, another struct's major, comparing two devices.
  printf("%d.%d\n", prop.major, prop.minor);
  Version v{1, 2};
  cudaDeviceProp other;
  cudaGetDeviceProperties(&other, 1);
  return (v.major >= 1 && prop.major == other.major) ? 0 : 1;
}
