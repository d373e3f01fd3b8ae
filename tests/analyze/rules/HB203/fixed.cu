// HB203 golden input: cache-hint loads and stores.
#include <cuda_runtime.h>

__global__ void copy(const float* __restrict__ in, float* out, const float4* in4, float4* out4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldg(&in[i]);
  float b = __ldg(&in[i]);
  float4 c = __ldg(&in4[i]);
  __stcs(&out4[i], c);
  // Negatives: plain loads and a user function that merely contains the letters.
  float d = in[i];
  out[i] = a + b + d + c.x;
}
