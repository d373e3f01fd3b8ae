#include <cublas_v2.h>
#include <cuda_runtime.h>

int Solve(int n) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasDestroy(handle);
  return n > 0 ? 0 : 1;
}
