// Read-only loads through the texture path.
#include <cuda_runtime.h>

__global__ void saxpy_ldg(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * __ldg(&x[i]) + y[i];
}

__global__ void stream_copy(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldcs(&in[i]);
    __stcs(&out[i], v);
  }
}

// Hand-written loads named like intrinsics are not intrinsics.
struct Loader {
  __device__ float ldg(const float* p) const { return *p; }
};
__global__ void use_loader(const float* p, float* q) { q[threadIdx.x] = Loader{}.ldg(p + threadIdx.x); }
