// A main file with no CUDA include of its own (nvcc includes cuda_runtime.h implicitly) that calls a *_sync warp
// function (HeCBench rsmt: "use of undeclared identifier '__any_sync'"): both the warp-sync define and the runtime
// include go at its top, the define first, or HIP 6.4 declares no *_sync function. Must compile for gfx942.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// CHECK: #define HIP_ENABLE_WARP_SYNC_BUILTINS 1
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <stdio.h>
#include <stdio.h>
__device__ bool AnyLeft(int lane, int top) { return __any_sync(0xffffffff, lane < top - 2); }
__global__ void Count(int* out, int top) { out[threadIdx.x] = AnyLeft(threadIdx.x % 32, top); }
