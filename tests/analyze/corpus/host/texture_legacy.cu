// Legacy texture references (removed in CUDA 12) next to a texture object.
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> tex_input;

__global__ void gather_tex(float* out, const int* idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(tex_input, idx[i]);
}

void bind(const float* d_in, size_t n) {
  cudaBindTexture(nullptr, tex_input, d_in, n * sizeof(float));
}

__global__ void gather_obj(cudaTextureObject_t tex, float* out, const int* idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, idx[i]);
}
