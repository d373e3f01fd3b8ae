// HB104 golden input: shuffle offsets and widths that assume 32 lanes.
#include <cuda_runtime.h>

__device__ float reduce_down(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(__activemask(), v, offset);
  return v;
}

__device__ float scan_up(float v, int lane) {
  for (int d = 1; d < 32; d *= 2) {
    float n = __shfl_up_sync(__activemask(), v, d);
    if (lane >= d) v += n;
  }
  return v;
}

__device__ float unrolled(float v) {
  v += __shfl_xor_sync(__activemask(), v, 16);
  v += __shfl_xor_sync(__activemask(), v, 8);
  v += __shfl_xor_sync(__activemask(), v, 4);
  return v;
}

__global__ void kernel(float* out) {
  float v = out[threadIdx.x];
  float b = __shfl_sync(__activemask(), v, 0, 32);
  // Negatives: wave-size-agnostic loops, sub-warp segments, loops without shuffles.
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(__activemask(), v, offset);
  for (int offset = 4; offset > 0; offset /= 2) v += __shfl_down_sync(__activemask(), v, offset, 8);
  float s = __shfl_sync(__activemask(), v, 0, 16);
  for (int i = 16; i > 0; i /= 2) out[i] = v;
  out[threadIdx.x] = reduce_down(v) + scan_up(v, threadIdx.x) + unrolled(v) + b + s;
}

// Segments of 32 by design (every shuffle passes width 32): reported, left as written.
__global__ void segment_scan(const int* in, int* out) {
  const int lane = threadIdx.x % 32;
  int v = in[threadIdx.x];
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(__activemask(), v, d, 32);
    if (lane >= d) v += up;
  }
  out[threadIdx.x] = v;
}
