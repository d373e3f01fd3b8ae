#include <torch/extension.h>

torch::Tensor fused_gelu_cuda(torch::Tensor x);

torch::Tensor fused_gelu(torch::Tensor x) {
  TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
  return fused_gelu_cuda(x);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("fused_gelu", &fused_gelu); }
