// ARGS: --roc
// Without --use-hip-data-types, --roc keeps rocBLAS's own data types (compare hip_data_types.cu).
// CHECK: rocblas_datatype type = rocblas_datatype_f32_r;
#include <cublas_v2.h>
int main() {
  cudaDataType type = CUDA_R_32F;
  return type;
}
