// HIP defines neither CUDA_VERSION nor CUDART_VERSION: a condition on them reads 0 after translation, which
// silently picks the other branch; each such #if gets a located warning (a defined() test does not).
// STDERR: cuda_version_condition.cu:[[@LINE+2]]:5: warning: 'CUDART_VERSION' is not defined by HIP{{.*}}[TR014]
#include <cuda_runtime.h>
#if CUDART_VERSION >= 2020
inline int Modern() { return 1; }
#else
inline int Modern() { return 0; }
#endif
// STDERR-NOT: [TR014]
#if defined(CUDA_VERSION)
inline int HasDriverHeader() { return 1; }
#endif
int main() { return Modern(); }
