// HB206 golden input: texture objects over linear and pitch-linear memory on a gfx94x target. The reads and
// the object's creation are rewritten to global loads (fixed.cu); array.cu holds what needs a person.
#include <cuda_runtime.h>

__global__ void gather(cudaTextureObject_t table, const int* index, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(table, index[i]);
}

__global__ void resample(cudaTextureObject_t image, float* out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(image, (x + 0.25f) / w, (y + 0.75f) / h);
}

cudaTextureObject_t pitched_texture(float* data, int w, int h, size_t pitch) {
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = data;
  resource.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  resource.res.pitch2D.width = w;
  resource.res.pitch2D.height = h;
  resource.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc texture = {};
  texture.normalizedCoords = true;
  texture.filterMode = cudaFilterModeLinear;
  texture.addressMode[0] = cudaAddressModeMirror;
  texture.addressMode[1] = cudaAddressModeClamp;
  texture.readMode = cudaReadModeElementType;
  cudaTextureObject_t object = 0;
  cudaCreateTextureObject(&object, &resource, &texture, nullptr);
  return object;
}

void release(cudaTextureObject_t object) { cudaDestroyTextureObject(object); }

// Negatives: members and other functions that share the names.
struct Sampler {
  __host__ __device__ float tex2D(float x, float y) const { return x + y; }
};
__host__ __device__ float use_sampler(const Sampler& s) {
  int texture = 3;  // a local variable, not a texture reference
  return s.tex2D(1.0f, 2.0f) + texture;
}
