// HB206 golden input: a CUDA array behind the texture (tiled image memory) and a surface: needs a person.
#include <cuda_runtime.h>

__global__ void blur(cudaTextureObject_t image, cudaSurfaceObject_t target, int w) {
  const int x = threadIdx.x;
  surf2Dwrite(tex2D<float>(image, x, 0.5f), target, x * sizeof(float), 0);
}

void make(int w, int h) {
  cudaChannelFormatDesc format = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  cudaMallocArray(&array, &format, w, h);
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = array;
  cudaTextureDesc texture = {};
  cudaTextureObject_t object = 0;
  cudaCreateTextureObject(&object, &resource, &texture, nullptr);
}
