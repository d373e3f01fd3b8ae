// ARGS: --roc --use-hip-data-types
// --use-hip-data-types (hipify-clang's option): CUDA data types become HIP's own hipDataType / HIP_R_32F...
// even where --roc would pick rocBLAS's library-specific rocblas_datatype; other names still follow --roc.
// CHECK: #include <rocblas.h>
#include <cublas_v2.h>
int main() {
  // CHECK: hipDataType type = HIP_R_32F;
  cudaDataType_t type = CUDA_R_32F;
  // CHECK: hipDataType complex_type = HIP_C_64F;
  cudaDataType complex_type = CUDA_C_64F;
  // CHECK: rocblas_handle handle;
  cublasHandle_t handle;
  return type == complex_type;
}
