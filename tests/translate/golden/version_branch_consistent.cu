// Version branches on real programs (issue 29): a rewrite never switches a program into its #error, and a version
// macro's value inside a rewritten branch reads what the condition read. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: --target-hip-version=6.4 -v
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cstdio>

// `#ifdef CUDA_VERSION` became `#ifdef HIP_VERSION` while CUDA_VERSION/1000 inside stayed (undeclared on AMD, and
// "CUDA 0.x" on the NVIDIA layer): the value in code is rewritten as the condition reads it.
// CHECK: #ifdef HIP_VERSION
#ifdef CUDA_VERSION
// STDERR-DAG: version_branch_consistent.cu:[[@LINE+2]]:55: note: 'CUDA_VERSION' is not defined by HIP; its value in code is the one the version conditions read: rewritten to (HIP_VERSION >= 60000000 ? 12000 : {{.*}}), which reads 12000 under HIP 6.4{{.*}}[TR014]
// CHECK: void Banner() { std::printf("built for CUDA %d.%d\n", (HIP_VERSION >= 60000000 ? 12000 : {{.*}}) / 1000, ((HIP_VERSION >= 60000000 ? 12000 : {{.*}}) % 1000) / 10); }
void Banner() { std::printf("built for CUDA %d.%d\n", CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10); }
#else
void Banner() {}
#endif
// CHECK: #define RUNTIME_MAJOR ((HIP_VERSION >= 60000000 ? 12000 : {{.*}}) / 1000)
#define RUNTIME_MAJOR (CUDART_VERSION / 1000)

// Per feature, the highest lower value took the #error ("11.x is not supported" here): an #error is no branch HIP
// provides, so the value that takes the legacy branch is chosen.
// STDERR-DAG: version_branch_consistent.cu:[[@LINE+2]]:5: note: 'CUDART_VERSION' {{.*}}reads 10999 under HIP 6.4 (per feature: the table's 12000 would take a branch that uses '__hmax2_nan', which HIP 6.4 lacks{{.*}}[TR014]
// CHECK: #if (defined(__HIP_PLATFORM_NVIDIA__) ? CUDART_VERSION : (HIP_VERSION >= 60000000 ? 10999 : {{.*}})) >= 12000
#if CUDART_VERSION >= 12000
__device__ __half2 Max(__half2 a, __half2 b) { return __hmax2_nan(a, b); }
#elif CUDART_VERSION >= 11000
#error "CUDA 11.x is not supported"
#else
__device__ __half2 Max(__half2 a, __half2 b) {
  return __floats2half2_rn(fmaxf(__low2float(a), __low2float(b)), fmaxf(__high2float(a), __high2float(b)));
}
#endif

// A chain the rewrite would switch into its #error is left as written, with a located warning: HIP reads the CUDA
// macro as undefined and skips the nvcc-only check.
// STDERR-DAG: version_branch_consistent.cu:[[@LINE+2]]:1: warning: version chain left as written: rewritten for HIP 6.4, it would select the #error of a version chain nested in it{{.*}}[TR014]
// CHECK: #if defined(__CUDACC_VER_MAJOR__)
#if defined(__CUDACC_VER_MAJOR__)
// CHECK: #if __CUDACC_VER_MAJOR__ < 13
#if __CUDACC_VER_MAJOR__ < 13
#error "needs nvcc 13 for the CUDA 13 copy engine"
#endif
#endif

__global__ void Kernel(__half2* out, const __half2* a, const __half2* b) {
  out[threadIdx.x] = Max(a[threadIdx.x], b[threadIdx.x]);
}

int main() {
  Banner();
  return RUNTIME_MAJOR > 0 ? 0 : 1;
}
