// A project header whose CUDA names all sit in an `#ifdef __CUDACC__` region (HeCBench frna's cu.h), included by
// C files too (nvcc compiles those as C, where hip_runtime.h cannot be included: "Must define exactly one of
// __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"): the runtime include goes inside the region, so a C unit
// still compiles and a HIP unit gets the runtime. The output must compile as C and as HIP for gfx942.
// COMPILE-C:
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// CHECK: #define CU_H
// CHECK-EMPTY:
// CHECK-NEXT: #ifdef __HIPCC__
// CHECK-EMPTY:
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK: #define CU(x) if ((x) != hipSuccess) { fprintf(stderr, "%s\n", hipGetErrorString(x)); }
#ifndef CU_H
#define CU_H

#ifdef __CUDACC__
#define CU(x) if ((x) != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(x)); }
#define DEV __device__
#else
#define DEV
#endif

DEV static inline int Twice(int x) { return 2 * x; }

#endif
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
