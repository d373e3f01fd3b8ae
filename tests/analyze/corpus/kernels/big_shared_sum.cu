// Several shared arrays that together exceed 64 KiB in one kernel.
#include <cuda_runtime.h>

constexpr int BM = 128;
constexpr int BK = 64;

__global__ void gemm_double_buffer(const float* A, const float* B, float* C, int N) {
  __shared__ float As[2][BM][BK];
  __shared__ float Bs[2][BK][BM];
  int t = threadIdx.x;
  As[0][t % BM][t % BK] = A[t];
  Bs[0][t % BK][t % BM] = B[t];
  __syncthreads();
  C[blockIdx.x * blockDim.x + t] = As[0][t % BM][0] + Bs[0][0][t % BM] + N * 0;
}

__global__ void fits_in_lds(const float* A, float* C) {
  __shared__ float a[64][64];
  __shared__ float b[64][64];
  __shared__ int flags[1024];
  int t = threadIdx.x;
  a[t % 64][t / 64] = A[t];
  b[t / 64][t % 64] = A[t];
  flags[t % 1024] = 1;
  __syncthreads();
  C[t] = a[0][t % 64] + b[t % 64][0] + flags[t % 1024];
}
