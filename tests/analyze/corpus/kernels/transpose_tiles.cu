// Shared-memory transpose with 32x32 tiles: the 32s are tile sizes, not warp sizes.
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeCoalesced(float* odata, const float* idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void copy_tile(float* out, const float* in, int n) {
  int col = blockIdx.x * 32 + threadIdx.x % 32;
  int row = blockIdx.y * 32 + threadIdx.x / 32;
  if (row < n && col < n) out[row * n + col] = in[row * n + col];
}

void transpose(float* out, const float* in, int w, int h) {
  dim3 grid((w + 31) / 32, (h + 31) / 32);
  dim3 block(32, 8);
  transposeCoalesced<<<grid, block>>>(out, in, w, h);
  copy_tile<<<dim3(w / 32, h / 32), 1024>>>(out, in, w);
}
