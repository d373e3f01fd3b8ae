// Version branches per feature (issue 14 item 2; ggml's common.cuh): the table reads CUDART_VERSION as 12000
// under HIP 6.x, but HIP 6.4 lacks launch attributes (CUDA 11.8), __hmax2 (11.7) and __hgt2_mask (12.0). Where
// the branch 12000 takes uses such a name (also through a macro it defines and the file tests), or leaves out
// the project's own definition of one, the macro reads the highest lower value that takes the branch HIP
// provides, with a located note naming the API. Chains whose branch HIP provides keep the table's value.
// The output must compile for gfx942 with HIP 6.4 (checked where that toolchain is present).
// ARGS: --target-hip-version=6.4 -v --installed-header-layout
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
#include <cuda_fp16.h>
#include <cublas_v2.h>
#define CUDART_HMAX 11070
#define CUDART_HMASK 12000

// Through a macro the branch defines: PROJECT_USE_PDL guards code with CUDA 11.8's launch attributes.
// CHECK: #if !defined(PROJECT_USE_HIP) && ((defined(__HIP_PLATFORM_NVIDIA__) ? CUDART_VERSION : (HIP_VERSION >= 60000000 ? 11079 : HIP_VERSION >= 50000000 ? 11000 : 10020)) >= 12030 || (!defined(_MSC_VER) && (defined(__HIP_PLATFORM_NVIDIA__) ? CUDART_VERSION : (HIP_VERSION >= 60000000 ? 11079 : HIP_VERSION >= 50000000 ? 11000 : 10020)) >= 11080))
// STDERR-DAG: version_features.cu:[[@LINE+1]]:35: note: 'CUDART_VERSION' {{.*}} reads 11079 under HIP 6.4 (per feature: the table's 12000 would take a branch that uses 'cudaLaunchAttribute' (where PROJECT_USE_PDL, which it defines, is tested), which HIP 6.4 lacks {{.*}}[TR014]
#if !defined(PROJECT_USE_HIP) && (CUDART_VERSION >= 12030 || (!defined(_MSC_VER) && CUDART_VERSION >= 11080))
#define PROJECT_USE_PDL
#endif

// Must stay: HIP provides this branch's API (hipblasStatusToString's level), so the table's value holds.
// CHECK: #if (HIP_VERSION >= 60000000 ? 12000 : HIP_VERSION >= 50000000 ? 11000 : 10020) >= 12000
// STDERR-DAG: version_features.cu:[[@LINE+1]]:5: note: 'CUDART_VERSION' {{.*}} reads 12000 under HIP 6.4 (HIP 6.x provides the CUDA 12 runtime API level
#if CUDART_VERSION >= 12000
inline int modern_runtime() { return 12; }
#endif

static __device__ __forceinline__ half hmax(const half a, const half b) {
// Must stay: __hmax is in HIP 6.4, so the branch 12000 takes is kept.
// CHECK: #if !defined(PROJECT_USE_HIP) && (HIP_VERSION >= 60000000 ? 12000 : HIP_VERSION >= 50000000 ? 11000 : 10020) < CUDART_HMAX
#if !defined(PROJECT_USE_HIP) && CUDART_VERSION < CUDART_HMAX
    return __float2half(fmaxf(__half2float(a), __half2float(b)));
#else
    return __hmax(a, b);
#endif
}

// A value of the project's own (CUDART_HMAX) in the condition: __hmax2 is not in HIP 6.4, the #else is taken.
static __device__ __forceinline__ half2 hmax2(const half2 a, const half2 b) {
#if defined(PROJECT_USE_HIP)
    return half2(__hmax(a.x, b.x), __hmax(a.y, b.y));
// CHECK: #elif (defined(__HIP_PLATFORM_NVIDIA__) ? CUDART_VERSION : (HIP_VERSION >= 60000000 ? 11069 : HIP_VERSION >= 50000000 ? 11000 : 10020)) >= CUDART_HMAX
// STDERR-DAG: version_features.cu:[[@LINE+1]]:7: note: 'CUDART_VERSION' {{.*}} reads 11069 under HIP 6.4 (per feature: the table's 12000 would take a branch that uses '__hmax2', which HIP 6.4 lacks
#elif CUDART_VERSION >= CUDART_HMAX
    return __hmax2(a, b);
#else
    half2 ret;
    reinterpret_cast<half&>(ret.x) = __float2half(fmaxf( __low2float(a),  __low2float(b)));
    reinterpret_cast<half&>(ret.y) = __float2half(fmaxf(__high2float(a), __high2float(b)));
    return ret;
#endif
}

// The project defines __hgt2_mask itself below CUDA 12: HIP 6.4 lacks it, so that branch is the one taken.
// CHECK: #if (defined(HIP_VERSION) && (defined(__HIP_PLATFORM_NVIDIA__) ? CUDART_VERSION : (HIP_VERSION >= 60000000 ? 11999 : HIP_VERSION >= 50000000 ? 11000 : 10020)) < CUDART_HMASK) || defined(PROJECT_USE_HIP)
// STDERR-DAG: version_features.cu:[[@LINE+1]]:33: note: 'CUDART_VERSION' {{.*}} reads 11999 under HIP 6.4 (per feature: the table's 12000 would take a branch that leaves out the project's own '__hgt2_mask', which HIP 6.4 lacks
#if (defined(CUDART_VERSION) && CUDART_VERSION < CUDART_HMASK) || defined(PROJECT_USE_HIP)
static __device__ __forceinline__ uint32_t __hgt2_mask(const half2 a, const half2 b) {
    const uint32_t mask_low  = 0x0000FFFF * (float( __low2half(a)) > float( __low2half(b)));
    const uint32_t mask_high = 0xFFFF0000 * (float(__high2half(a)) > float(__high2half(b)));
    return mask_low | mask_high;
}
#endif

#if defined(PROJECT_USE_PDL)
struct pdl_config {
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t  cfg;
    pdl_config() { attr.id = cudaLaunchAttributeProgrammaticStreamSerialization; cfg = {}; cfg.attrs = &attr; }
};
#endif

// cuBLAS 11's user workspace: hipBLAS 6.4 has no cublasSetWorkspace (blas_table.cc), so the branch without it.
void make_handle(cublasHandle_t* handle, void** workspace) {
  cublasCreate(handle);
// CHECK: #if ((defined(__HIP_PLATFORM_NVIDIA__) ? CUBLAS_VER_MAJOR : (HIP_VERSION >= 60000000 ? 11 : 10)) > 11 || ((defined(__HIP_PLATFORM_NVIDIA__) ? CUBLAS_VER_MAJOR : (HIP_VERSION >= 60000000 ? 11 : 10)) == 11 && CUBLAS_VER_MINOR >= 2))
// STDERR-DAG: version_features.cu:[[@LINE+1]]:6: note: 'CUBLAS_VER_MAJOR' {{.*}} reads 11 under HIP 6.4 (per feature: the table's 12 would take a branch that uses 'cublasSetWorkspace', which HIP 6.4 lacks
#if (CUBLAS_VER_MAJOR > 11 || (CUBLAS_VER_MAJOR == 11 && CUBLAS_VER_MINOR >= 2))
  cudaMalloc(workspace, 1 << 22);
  cublasSetWorkspace(*handle, *workspace, 1 << 22);
#endif
}

__global__ void k(half2* x, uint32_t* m) { x[0] = hmax2(x[0], x[1]); m[0] = __hgt2_mask(x[0], x[1]); }
int main() { return modern_runtime(); }
