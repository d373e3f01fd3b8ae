// HIP defines neither CUDA_VERSION nor CUDART_VERSION: a condition on them is rewritten to HIP_VERSION (table
// worker/translate/tables/version_macros_table.cc) so the branch whose APIs HIP provides is taken, with a
// located note; defined() reads HIP's own macro.
// ARGS: -v
// STDERR: cuda_version_condition.cu:[[@LINE+3]]:5: note: 'CUDART_VERSION' is not defined by HIP; rewritten to (HIP_VERSION >= 60000000 ? 12000 : HIP_VERSION >= 50000000 ? 11000 : 10020), which reads 12000 under HIP 6.4{{.*}}[TR014]
// CHECK: #if (HIP_VERSION >= 60000000 ? 12000 : HIP_VERSION >= 50000000 ? 11000 : 10020) >= 2020
#include <cuda_runtime.h>
#if CUDART_VERSION >= 2020
inline int Modern() { return 1; }
#else
inline int Modern() { return 0; }
#endif
// CHECK: #if defined(HIP_VERSION)
#if defined(CUDA_VERSION)
inline int HasDriverHeader() { return 1; }
#endif
int main() { return Modern(); }
