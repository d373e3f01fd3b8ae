// A C header shared by C and CUDA sources (ggml's include/ggml.h) whose only table names are plain C ones that
// HIP spells the same (min, max) gets no HIP runtime include: C files include it too, and hip_runtime.h stops
// them ("Must define exactly one of __HIP_PLATFORM_AMD__ or __HIP_PLATFORM_NVIDIA__"). __CUDACC__ still becomes
// __HIPCC__. The output must compile as C.
// COMPILE-C: -Wall
// CHECK-NOT: hip_runtime
// CHECK: #ifdef __HIPCC__
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
struct range { float min; float max; };
float clamp_to(float v, float min, float max);
#ifdef __CUDACC__
#define RANGE_INLINE __host__ __device__ inline
#endif
#ifdef __cplusplus
}
#endif
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
