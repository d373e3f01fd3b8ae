// Mixed-precision GEMM through cuBLAS.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

void gemm_fp16_fp32(cublasHandle_t handle, int m, int n, int k, const __half* A, const __half* B, float* C) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasSetMathMode(handle, CUBLAS_TENSOR_OP_MATH);
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_16F, m, B, CUDA_R_16F, k, &beta, C,
               CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}

void batched(cublasHandle_t handle, int m, int n, int k, int count, const float* A, const float* B, float* C) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_32F, k, 1ll * m * k, B,
                             CUDA_R_32F, k, 1ll * k * n, &beta, C, CUDA_R_32F, m, 1ll * m * n, count,
                             CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
}

void plain_sgemm(cublasHandle_t handle, int n, const float* A, const float* B, float* C) {
  const float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n);
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
}
