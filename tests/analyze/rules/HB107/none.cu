// Negative: launch bounds and launches that agree on AMD as on NVIDIA.
#include <cuda_runtime.h>

// The 32 is the branch hipcc's own macro steers away from: 64 in the migrated build on MI250/MI300.
static constexpr __device__ int wave_size() {
#if defined(__HIP_PLATFORM_AMD__)
  return 64;
#else
  return 32;
#endif
}
__global__ void __launch_bounds__(4 * wave_size()) hip_aware(float* out) { out[threadIdx.x] = 0.f; }

void launch_hip_aware(float* out, int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  hip_aware<<<1, 4 * prop.warpSize>>>(out);
}

// Launched with the same compile-time constant: 128 threads on both vendors.
#define WARP_SIZE 32
__global__ void __launch_bounds__(4 * WARP_SIZE) same_constant(float* out) { out[threadIdx.x] = 0.f; }

void launch_same_constant(float* out) { same_constant<<<1, 4 * WARP_SIZE>>>(out); }

// Bounds that are not a warp size: 256 threads whatever the wavefront.
__global__ void __launch_bounds__(256) plain_bounds(float* out) { out[threadIdx.x] = 0.f; }

void launch_plain(float* out, int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  plain_bounds<<<1, 4 * prop.warpSize>>>(out);
}

// 32 warps of a block, not a warp size.
#define WARPS_PER_BLOCK 32
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 8) warps_bounded(float* out) { out[threadIdx.x] = 0.f; }

void launch_warps(float* out, int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  warps_bounded<<<1, 8 * prop.warpSize>>>(out);
}

// The block's shape comes from a caller that uses the compile-time constant too.
constexpr int kWarpWidth = 32;
__global__ void __launch_bounds__(4 * kWarpWidth) shaped_by_caller(float* out) { out[threadIdx.x] = 2.f; }

static void launch_shaped(float* out, const dim3& block_dims) { shaped_by_caller<<<1, block_dims>>>(out); }

void shape_and_launch(float* out) { launch_shaped(out, dim3(kWarpWidth, 4)); }
