// cublasGetStatusString (CUDA 11.4+) is hipBLAS's hipblasStatusToString (ROCm 5.7.1 and 6.4.3 checked); HIPIFY's
// hipblasGetStatusString is in no hipBLAS release (HeCBench gels-cuda: "use of undeclared identifier").
// The output must compile for gfx942 with HIP 6.4 (checked where that toolchain is present).
// ARGS: --installed-header-layout --hipblas-hip-half
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// CHECK: #include <hipblas/hipblas.h>
#include <cublas_v2.h>
#include <cstdio>
// JSON: "unsupported": 0
void Report(cublasStatus_t status) {
  // CHECK: if (status != HIPBLAS_STATUS_SUCCESS) std::printf("%s\n", hipblasStatusToString(status));
  if (status != CUBLAS_STATUS_SUCCESS) std::printf("%s\n", cublasGetStatusString(status));
}
// cublasGetStatusName (the status's name) was left unmapped while cublasGetStatusString was (issue 29):
// hipblasStatusToString returns the name ("HIPBLAS_STATUS_SUCCESS").
void ReportName(cublasStatus_t status) {
  // CHECK: std::printf("%s\n", hipblasStatusToString(status));
  std::printf("%s\n", cublasGetStatusName(status));
}
