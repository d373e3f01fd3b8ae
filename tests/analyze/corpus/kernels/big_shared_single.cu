// One oversized static tile.
#include <cuda_runtime.h>

#define TILE 128

__global__ void stencil_big(const float* in, float* out, int n) {
  __shared__ float halo[TILE + 2][TILE + 2];
  __shared__ double wide_tile[96][96];
  int x = threadIdx.x, y = threadIdx.y;
  halo[y][x] = in[y * n + x];
  wide_tile[y][x] = halo[y][x];
  __syncthreads();
  out[y * n + x] = static_cast<float>(wide_tile[y][x]);
}
