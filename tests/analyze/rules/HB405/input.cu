// HB405 golden input: legacy texture references (do not parse with CUDA 12+ headers: token rules decide).
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> input_tex;
texture<float4, cudaTextureType2D> image_tex;

__global__ void read(float* out) { out[threadIdx.x] = tex1Dfetch(input_tex, threadIdx.x); }

void bind(const float* data, size_t bytes) {
  cudaBindTexture(nullptr, input_tex, data, bytes);
  read<<<1, 256>>>(nullptr);
  cudaUnbindTexture(input_tex);
}

// Negative: texture objects.
__global__ void read_object(cudaTextureObject_t tex, float* out) {
  out[threadIdx.x] = tex1Dfetch<float>(tex, threadIdx.x);
}
