// HB303 golden input: TF32 and tensor-op math modes.
#include <cublas_v2.h>

void configure(cublasHandle_t handle) {
  cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  (void)compute;
  // Negatives: default math and pedantic FP32 compute type.
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
  cublasComputeType_t exact = CUBLAS_COMPUTE_32F;
  (void)exact;
}
