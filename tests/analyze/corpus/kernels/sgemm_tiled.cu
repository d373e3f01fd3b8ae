// Tiled SGEMM: BLOCK_SIZE 32 tiles.
#include <cuda_runtime.h>
#include <cstdio>

constexpr int BLOCK_SIZE = 32;

__global__ void sgemm(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BLOCK_SIZE + ty;
  const int col = blockIdx.x * BLOCK_SIZE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
    As[ty][tx] = (row < M && t * 32 + tx < K) ? A[row * K + t * 32 + tx] : 0.0f;
    Bs[ty][tx] = (col < N && t * 32 + ty < K) ? B[(t * 32 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

int run(int M, int N, int K, const float* A, const float* B, float* C) {
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  sgemm<<<grid, threads>>>(M, N, K, A, B, C);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) std::printf("launch failed: %s\n", cudaGetErrorString(err));
  return err == cudaSuccess ? 0 : 1;
}
