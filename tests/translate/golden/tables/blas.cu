// cuBLAS table (v2 API): handle, status, operations, the include guard; an API hipBLAS lacks stays, with a
// located warning.
// CHECK: #include <hipblas.h>
#include <cublas_v2.h>
// CHECK: #ifdef HIPBLAS_H
#ifdef CUBLAS_API_H_
// CHECK: inline bool Ok(hipblasStatus_t status) { return status == HIPBLAS_STATUS_SUCCESS; }
inline bool Ok(cublasStatus_t status) { return status == CUBLAS_STATUS_SUCCESS; }
#endif
int main() {
  // CHECK: hipblasHandle_t handle;
  cublasHandle_t handle;
  // CHECK: hipblasCreate(&handle);
  cublasCreate(&handle);
  const float alpha = 1.0f, beta = 0.0f;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  // CHECK: hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, 4, 4, 4, &alpha, a, 4, b, 4, &beta, c, 4);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &alpha, a, 4, b, 4, &beta, c, 4);
  // STDERR: blas.cu:[[@LINE+2]]:3: warning: 'cublasInit' is unsupported in 'HIP'. [TR001]
  // CHECK: cublasInit();
  cublasInit();
  // CHECK: hipblasDestroy(handle);
  cublasDestroy(handle);
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
