// HB301 golden input: cublasGemmEx-family calls.
#include <cublas_v2.h>

void gemm(cublasHandle_t handle, const float* a, const float* b, float* c, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_32F, n, b, CUDA_R_32F, n, &beta, c,
               CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, CUDA_R_32F, n, n * n, b,
                             CUDA_R_32F, n, n * n, &beta, c, CUDA_R_32F, n, n * n, 4, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
  // Negative: the classic typed GEMM maps one to one.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
}
