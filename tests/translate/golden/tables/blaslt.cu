// cuBLASLt table: handle, matmul descriptor and call; an API hipBLASLt lacks stays, with a located warning.
// CHECK: #include <hipblaslt.h>
#include <cublasLt.h>
int main() {
  // CHECK: hipblasLtHandle_t handle;
  cublasLtHandle_t handle;
  // CHECK: hipblasLtCreate(&handle);
  cublasLtCreate(&handle);
  // CHECK: hipblasLtMatmulDesc_t operation;
  cublasLtMatmulDesc_t operation;
  // CHECK: hipblasLtMatmulDescCreate(&operation, HIPBLAS_COMPUTE_32F, HIP_R_32F);
  cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  // STDERR: blaslt.cu:[[@LINE+2]]:20: warning: 'cublasLtGetVersion' is unsupported in 'HIP'. [TR001]
  // CHECK: size_t version = cublasLtGetVersion();
  size_t version = cublasLtGetVersion();
  // CHECK: hipblasLtDestroy(handle);
  cublasLtDestroy(handle);
  return version > 0 ? 0 : 1;
}
