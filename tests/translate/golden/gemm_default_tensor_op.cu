// CUBLAS_GEMM_DEFAULT_TENSOR_OP (ggml's ggml-cuda.cu, CUDA samples) is deprecated since CUDA 11, where tensor cores
// are allowed by default: it becomes HIPBLAS_GEMM_DEFAULT, the one algorithm hipBLAS honours (HIPIFY leaves it
// unsupported, and the output does not compile). The output must compile for gfx942 with HIP 6.4.
// ARGS: --installed-header-layout
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// JSON: "unsupported": 0
// CHECK: #include <hipblas/hipblas.h>
#include <cublas_v2.h>
cublasStatus_t Gemm(cublasHandle_t handle, int n, const float* alpha, const void* a, const void* b, const float* beta,
                    void* c) {
  // CHECK: return hipblasGemmEx_v2(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, alpha, a, HIP_R_32F, n, b, HIP_R_32F, n, beta, c, HIP_R_32F, n,
  return cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, CUDA_R_32F, n, b, CUDA_R_32F, n, beta, c, CUDA_R_32F, n,
                      // CHECK: HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
}
