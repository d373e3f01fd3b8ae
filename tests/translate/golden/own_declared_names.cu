// Issue 29: a CUDA-looking name the program declares itself (a variable `cudaBlockSize`, a parameter, an array, a
// helper function) is the program's own, not an unknown CUDA name: no TR008 note, not counted as unconverted (the
// effort model charged `cudaBlockSize` as an unknown CUDA name), and so is one a project header declares
// (`cudaUnknownThing`, include/unknown_api.cuh). The runtime calls around them are translated.
// CHECK: const int cudaBlockSize = 256;
// CHECK: __global__ void cudaScale(float* x, int cudaCount) {
// CHECK: hipMalloc(&data, 4 * cudaBlockSize);
// JSON-NOT: looks like a CUDA name
// JSON: "unconverted": 0
#include <cuda_runtime.h>
#include "include/unknown_api.cuh"
const int cudaBlockSize = 256;
__global__ void cudaScale(float* x, int cudaCount) {
  __shared__ float cudaTile[32];
  cudaTile[threadIdx.x % 32] = x[threadIdx.x];
  if (threadIdx.x < cudaCount) x[threadIdx.x] = 2 * cudaTile[threadIdx.x % 32];
}
int main() {
  float* data;
  cudaMalloc(&data, 4 * cudaBlockSize);
  cudaUnknownThing(nullptr);
  cudaScale<<<1, cudaBlockSize>>>(data, cudaBlockSize);
  return 0;
}
