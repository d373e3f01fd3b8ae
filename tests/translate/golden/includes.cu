// Include names are mapped; a second include of the same HIP main header is removed (line kept).
// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK-NOT: #include <cuda.h>
// CHECK-NOT: #include <hip/hip_runtime.h>
#include <cuda.h>
// CHECK: #include "hip/hip_fp16.h"
#include "cuda_fp16.h"
// CHECK: #include <hiprand/hiprand_kernel.h>
#include <curand_kernel.h>
int main() { return 0; }
