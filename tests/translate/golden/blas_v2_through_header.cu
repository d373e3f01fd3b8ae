// cublas_v2.h included by a project header (ggml: ggml-cuda.cu -> common.cuh -> vendors/cuda.h), not by this
// file: the parse sees cublasSgemm expand to cublas_v2.h's cublasSgemm_v2, so it is the v2 call (hipblasSgemm),
// not TR004's "include cublas_v2.h to translate it" left for a person (HIPIFY's answer: it decides by this file's
// own includes). (Not compiled here: the golden translates this file, not the header it includes.)
// ARGS: --installed-header-layout
// JSON: "unsupported": 0
// JSON-NOT: TR004
#include "include/blas_vendor.cuh"
cublasStatus_t Scale(cublasHandle_t handle, int n, const float* alpha, const float* a, const float* b, float* c) {
  // CHECK: return hipblasSgemm(handle, HIPBLAS_OP_T, HIPBLAS_OP_N, n, n, n, alpha, a, n, b, n, alpha, c, n);
  return cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, alpha, a, n, b, n, alpha, c, n);
}
