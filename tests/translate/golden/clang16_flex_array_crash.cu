// Regression (HeCBench frna-cuda): Clang 16 crashed with SIGSEGV in Sema::CheckArrayAccess when a struct member's
// array typedef names a type the parse does not know (there: int_t, defined only under -DINT). The unit must
// translate (here through the token-level fallback, since the parse has an error) instead of killing the tool.
// STDERR: clang16_flex_array_crash.cu:1:1: warning: translated by the token-level fallback{{.*}}unknown type name 'unknown_t'{{.*}}[TR007]
// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
typedef unknown_t table_t[4];
struct Tables { table_t stack; };
__device__ int Top(Tables* tables, int i) { return tables->stack[i]; }
// CHECK: hipMalloc(tables, sizeof(Tables));
void Make(Tables** tables) { cudaMalloc(tables, sizeof(Tables)); }
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
