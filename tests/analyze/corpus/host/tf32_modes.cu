// Math-mode switches for convolutions and GEMMs.
#include <cublas_v2.h>
#include <cstdlib>

void configure_math(cublasHandle_t handle) {
  if (std::getenv("ALLOW_TF32") != nullptr) {
    cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH);
  } else {
    cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH);
  }
}

// The word TF32 in a log message is not a math mode.
const char* describe() { return "TF32 disabled; using FP32"; }
