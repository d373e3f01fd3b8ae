// cuBLASLt matmul with a bias epilogue.
#include <cublasLt.h>
#include <cuda_runtime.h>

void lt_matmul(cublasLtHandle_t lt, int m, int n, int k, const float* A, const float* B, float* C, const float* bias,
               void* workspace, size_t workspace_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, c_layout = nullptr;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
  cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_32F, k, n, k);
  cublasLtMatrixLayoutCreate(&c_layout, CUDA_R_32F, m, n, m);
  const float alpha = 1.f, beta = 0.f;
  cublasLtMatmul(lt, op, &alpha, A, a_layout, B, b_layout, &beta, C, c_layout, C, c_layout, nullptr, workspace,
                 workspace_size, stream);
  cublasLtMatrixLayoutDestroy(a_layout);
  cublasLtMatrixLayoutDestroy(b_layout);
  cublasLtMatrixLayoutDestroy(c_layout);
  cublasLtMatmulDescDestroy(op);
}
