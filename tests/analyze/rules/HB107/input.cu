// Positive: kernels whose launch bounds use a compile-time warp size of 32, launched by host code that reads the
// warp size at run time (64 on MI250/MI300). The first is ggml's fwht_cuda (src/ggml-cuda/fwht.cu) in small.
#include <cuda_runtime.h>

static constexpr __device__ int get_physical_warp_size() {
#if defined(MYLIB_USE_HIP) && defined(__GFX9__)
  return 64;
#else
  return 32;
#endif
}

struct device_info {
  int warp_size;
};
device_info& info();

template <int N>
__launch_bounds__(4 * get_physical_warp_size(), 1) __global__ void rows_kernel(const float* src, float* dst, int rows) {
  constexpr int warp_size = get_physical_warp_size();
  const int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows) return;
  for (int i = 0; i < N / warp_size; ++i) dst[row * N + i * warp_size + threadIdx.x] = src[row * N + i * warp_size + threadIdx.x];
}

void launch_rows(const float* src, float* dst, int rows, cudaStream_t stream) {
  const int warp_size = info().warp_size;
  dim3 block(warp_size, 4);
  rows_kernel<64><<<(rows + 3) / 4, block, 0, stream>>>(src, dst, rows);
  rows_kernel<128><<<(rows + 3) / 4, block, 0, stream>>>(src, dst, rows);
}

#define WARP_SIZE 32
__global__ void __launch_bounds__(8 * WARP_SIZE) macro_bounded(float* out) { out[threadIdx.x] = 0.f; }

void launch_macro(float* out, int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  macro_bounded<<<1, 8 * prop.warpSize>>>(out);
}

constexpr int kWarpSize = 32;
__global__ void __launch_bounds__(2 * kWarpSize) attribute_bounded(float* out) { out[threadIdx.x] = 1.f; }

void launch_attribute(float* out, int device) {
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
  attribute_bounded<<<1, 2 * warp>>>(out);
}

// The block's shape comes from the caller, which reads the warp size (ggml's mul_mat_vec_q, mul_mat_f).
constexpr int kWarpWidth = 32;
__global__ void __launch_bounds__(4 * kWarpWidth) shaped_by_caller(float* out) { out[threadIdx.x] = 2.f; }

static void launch_shaped(float* out, const dim3& block_dims) { shaped_by_caller<<<1, block_dims>>>(out); }

void shape_and_launch(float* out, int device) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  launch_shaped(out, dim3(prop.warpSize, 4));
}
