#include <cuda_runtime.h>
#include <torch/extension.h>

__global__ void GeluKernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] * (1.0f + tanhf(0.7978845608f * (x[i] + 0.044715f * x[i] * x[i] * x[i])));
}

torch::Tensor fused_gelu_cuda(torch::Tensor x) {
  auto y = torch::empty_like(x);
  const int n = x.numel();
  GeluKernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
  return y;
}
