// HB302 golden input: cuBLASLt.
#include <cublasLt.h>

void matmul(cublasLtHandle_t handle, const float* a, const float* b, float* c, int n, cudaStream_t stream) {
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue));
  cublasLtMatrixLayout_t la;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(handle, desc, &alpha, a, la, b, la, &beta, c, la, c, la, nullptr, nullptr, 0, stream);
}

// Negative: plain cuBLAS.
void scale(float* x, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasDestroy(handle);
}
