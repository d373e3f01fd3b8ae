// What the translator produces for HIP 5.2 (Debian's hipcc), written as macros so the analyzer's fixed CUDA
// output can be compiled for gfx90a as it is: *_sync intrinsics lose their mask (HIP 5.2 has none), but the
// mask must be a 64-bit value as HIP 6.2+ requires -- a 32-bit mask fails this header's static_assert.
#pragma once
#include <hip/hip_runtime.h>

template <typename Mask>
__device__ inline int hipforge_require_64bit_mask(Mask) {
  static_assert(sizeof(Mask) == 8, "HIP lane masks are 64-bit: use 0xffffffffffffffffull");
  return 0;
}

#define __shfl_sync(mask, ...) (hipforge_require_64bit_mask(mask), __shfl(__VA_ARGS__))
#define __shfl_up_sync(mask, ...) (hipforge_require_64bit_mask(mask), __shfl_up(__VA_ARGS__))
#define __shfl_down_sync(mask, ...) (hipforge_require_64bit_mask(mask), __shfl_down(__VA_ARGS__))
#define __shfl_xor_sync(mask, ...) (hipforge_require_64bit_mask(mask), __shfl_xor(__VA_ARGS__))
#define __ballot_sync(mask, predicate) (hipforge_require_64bit_mask(mask), __ballot(predicate))
#define __any_sync(mask, predicate) (hipforge_require_64bit_mask(mask), __any(predicate))
#define __all_sync(mask, predicate) (hipforge_require_64bit_mask(mask), __all(predicate))
#define __syncwarp(mask) ((void)hipforge_require_64bit_mask(mask))
#define __activemask() __ballot(1)

#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaStream_t hipStream_t

// Texture objects (HB206's fixed golden).
#define cudaTextureObject_t hipTextureObject_t
#define cudaResourceDesc hipResourceDesc
#define cudaTextureDesc hipTextureDesc
#define cudaResourceTypePitch2D hipResourceTypePitch2D
#define cudaResourceTypeLinear hipResourceTypeLinear
#define cudaCreateChannelDesc hipCreateChannelDesc
#define cudaFilterModeLinear hipFilterModeLinear
#define cudaFilterModePoint hipFilterModePoint
#define cudaAddressModeMirror hipAddressModeMirror
#define cudaAddressModeClamp hipAddressModeClamp
#define cudaAddressModeBorder hipAddressModeBorder
#define cudaReadModeElementType hipReadModeElementType
