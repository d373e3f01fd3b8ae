// libcu++ pipelines (cuda::pipeline, cuda::memcpy_async) and the __pipeline_* primitives: HIP has neither, so the
// include becomes an inline synchronous fallback (group copy between block barriers) with a located warning
// about performance; the program builds and computes the same. The output must compile.
// COMPILE: --offload-arch=gfx90a
// STDERR: pipeline_fallback.cu:[[@LINE+4]]:11: warning: HIP has no libcu++ pipeline{{.*}}(performance){{.*}}[TR013]
// STDERR: pipeline_fallback.cu:[[@LINE+7]]:11: warning: HIP has no libcu++ pipeline{{.*}}[TR013]
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>
#include <cuda/pipeline>
// CHECK: #ifndef HIPFORGE_PIPELINE_SHIM
// CHECK: namespace cuda {
// CHECK: #endif
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

// Two-stage block pipeline: stage s+1 is copied while stage s is summed (on CUDA; synchronously on HIP).
__global__ void StagedSum(const float* in, float* out, int tiles) {
  constexpr int kTile = 256;
  __shared__ float stage[2][kTile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  // CHECK: auto pipe = cuda::make_pipeline(block, &state);
  auto pipe = cuda::make_pipeline(block, &state);
  float sum = 0.0f;
  pipe.producer_acquire();
  cuda::memcpy_async(block, stage[0], in, sizeof(float) * kTile, pipe);
  pipe.producer_commit();
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, stage[(t + 1) % 2], in + (t + 1) * kTile, cuda::aligned_size_t<16>(sizeof(float) * kTile), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    sum += stage[t % 2][threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Per-thread primitives.
__global__ void Primitive(const int4* in, int4* out) {
  __shared__ int4 buffer[128];
  __pipeline_memcpy_async(&buffer[threadIdx.x], &in[threadIdx.x], sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = buffer[127 - threadIdx.x];
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
