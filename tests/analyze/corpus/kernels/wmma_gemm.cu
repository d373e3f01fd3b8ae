// Tensor-core GEMM with the WMMA API (16x16x16 half tiles).
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_gemm(const half* a, const half* b, float* c, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    int aRow = warpM * 16, bCol = warpN * 16;
    if (aRow < M && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow + k * M, M);
      wmma::load_matrix_sync(b_frag, b + k + bCol * K, K);
      wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
  }
  wmma::store_matrix_sync(c + warpM * 16 + warpN * 16 * M, acc, M, wmma::mem_col_major);
}
