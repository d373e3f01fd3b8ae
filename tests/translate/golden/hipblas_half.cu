// cuBLAS takes __half; hipBLAS (5.7.1 and 6.4.3 checked) takes uint16_t unless HIPBLAS_USE_HIP_HALF is defined
// before its header (HeCBench blas-gemm-cuda: "no matching function for call to 'hipblasHgemm'"). With
// --hipblas-hip-half (the repository pass's default) the hipBLAS include gets that define, once; the output
// must compile for gfx942 with HIP 6.4 (checked where that toolchain is present).
// ARGS: --installed-header-layout --hipblas-hip-half
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// CHECK: #define HIPBLAS_USE_HIP_HALF 1
// CHECK: #include <hipblas/hipblas.h>
#include <cublas_v2.h>
// CHECK-NOT: HIPBLAS_USE_HIP_HALF
#include <cublas_v2.h>
#include <cuda_fp16.h>
void Gemm(cublasHandle_t handle, int n, const __half* a, const __half* b, __half* c) {
  const __half one = __float2half(1.0f), zero = __float2half(0.0f);
  // CHECK: hipblasHgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
  cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
}
