// Block-wide sum in the style of the classic "faster parallel reductions" post.
#include <cuda_runtime.h>

__inline__ __device__ float warpReduceSum(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__inline__ __device__ float blockReduceSum(float val) {
  static __shared__ float shared[32];
  int lane = threadIdx.x % 32;
  int wid = threadIdx.x / 32;
  val = warpReduceSum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();
  val = (threadIdx.x < blockDim.x / 32) ? shared[lane] : 0;
  if (wid == 0) val = warpReduceSum(val);
  return val;
}

__global__ void deviceReduceKernel(const float* in, float* out, int N) {
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) sum += in[i];
  sum = blockReduceSum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

void deviceReduce(const float* in, float* out, int N) {
  int threads = 512;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 1024) blocks = 1024;
  deviceReduceKernel<<<blocks, threads>>>(in, out, N);
  deviceReduceKernel<<<1, 1024>>>(out, out, blocks);
}
