// Version branches (issue 14 item 2): every branch is translated; the version macros read as HIP 6.4 has them,
// so the cuBLAS 11+ branch is the one taken; an #error branch HIP would select is reported where it is.
// ARGS: --target-hip-version=6.4 -v -- -DSOME_PROJECT_FLAG=1
#include <cublas_v2.h>

// CHECK: #if defined(HIP_VERSION) && (HIP_VERSION >= 60000000 ? 120000 : 10200) >= 11000
// STDERR-DAG: version_conditions.cu:[[@LINE+1]]:32: note: 'CUBLAS_VERSION' is not defined by HIP{{.*}}reads 120000 under HIP 6.4{{.*}}[TR014]
#if defined(CUBLAS_VERSION) && CUBLAS_VERSION >= 11000
// CHECK: hipblasStatus_t modern(hipblasHandle_t h) { return hipblasSetMathMode(h, HIPBLAS_DEFAULT_MATH); }
cublasStatus_t modern(cublasHandle_t h) { return cublasSetMathMode(h, CUBLAS_DEFAULT_MATH); }
#else
// The branch not taken is translated too.
// CHECK: hipblasStatus_t modern(hipblasHandle_t h) { return hipblasDestroy(h); }
cublasStatus_t modern(cublasHandle_t h) { return cublasDestroy(h); }
#endif

// A chain the rewrite would switch into its #error (here also through the nested chain) is left as written, with a
// located warning (issue 29): as written, HIP reads the CUDA macros as undefined and skips this nvcc-only check.
// STDERR-DAG: version_conditions.cu:[[@LINE+2]]:1: warning: version chain left as written: rewritten for HIP 6.4, it would select the #error of a version chain nested in it; as written, HIP reads CUDA's version macros as undefined (every{{.*}}[TR014]
// CHECK: #ifdef __CUDACC_VER_MAJOR__
#ifdef __CUDACC_VER_MAJOR__
// CHECK: #if __CUDACC_VER_MAJOR__ < 13
#if __CUDACC_VER_MAJOR__ < 13
// STDERR-DAG: version_conditions.cu:[[@LINE+1]]:1: warning: version chain left as written: rewritten for HIP 6.4, it would select this #error{{.*}}which selects an #error too{{.*}}[TR014]
#error "needs nvcc 13"
#endif
#endif

// A project that defines the macro itself keeps it.
#define CUDART_VERSION 11000
// CHECK: #if CUDART_VERSION >= 11000
#if CUDART_VERSION >= 11000
inline int project_version() { return 1; }
#endif

// Without MIOpen there is no cuDNN after translation: CUDNN_MAJOR is left to read 0 and the cuDNN-free branch
// is the one taken (the error branch is not), and it is not reported as an unknown CUDA name.
// STDERR-NOT: 'CUDNN_MAJOR' looks like a CUDA name
// CHECK: #if CUDNN_MAJOR >= 8
// STDERR-NOT: version_conditions.cu:[[@LINE+3]]{{.*}}#error
#if CUDNN_MAJOR >= 8
inline int dnn() { return 8; }
#elif defined(CUDNN_MAJOR)
#error "old cuDNN"
#else
inline int dnn() { return 0; }
#endif

// Unknown conditions in a version chain: the #error it may select is named.
// STDERR-DAG: version_conditions.cu:[[@LINE+4]]:1: warning: this #error may be selected under HIP 6.4{{.*}}[TR014]
#if CUDA_VERSION >= 12000 && SOME_PROJECT_FLAG
inline int flag() { return 1; }
#else
#error "unsupported configuration"
#endif
// No branch HIP provides: said where the chain is, never chosen silently.
// STDERR-DAG: version_conditions.cu:[[@LINE+1]]:1: warning: under HIP 6.4 this version chain selects a branch that uses '__hmax2_nan', which HIP 6.4 lacks, and no version value selects one that HIP provides{{.*}}[TR014]
#if CUDA_VERSION >= 11000
__device__ half2 hmax2_nan(half2 a, half2 b) { return __hmax2_nan(a, b); }
#else
__device__ half2 hmax2_nan(half2 a, half2 b) { return __hmax2_nan(b, a); }
#endif

// A lower value would take the #error (issue 29: "CUBLAS error names missing" was taken, its note saying it took
// the branch HIP provides): an #error is no branch HIP provides, so the table's value stays, with a warning.
// STDERR-DAG: version_conditions.cu:[[@LINE+3]]:1: warning: under HIP 6.4 this version chain selects a branch that uses 'cublasSetWorkspace', which HIP 6.4 lacks, and no version value selects one that HIP provides{{.*}}[TR014]
// STDERR-DAG: version_conditions.cu:[[@LINE+2]]:5: note: 'CUBLAS_VER_MAJOR' is not defined by HIP{{.*}}reads 12 under HIP 6.4 (hipBLAS{{.*}}[TR014]
// CHECK: #if (HIP_VERSION >= 60000000 ? 12 : {{.*}}) >= 11
#if CUBLAS_VER_MAJOR >= 11
cublasStatus_t workspace(cublasHandle_t h, void* w, size_t n) { return cublasSetWorkspace(h, w, n); }
#else
#error "CUBLAS error names missing"
#endif

int main() { return dnn(); }
