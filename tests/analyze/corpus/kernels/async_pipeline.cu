// Asynchronous global-to-shared copies (Ampere).
#include <cuda_runtime.h>
#include <cuda/pipeline>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void staged_sum(const float* in, float* out, int n) {
  __shared__ float stage[2][256];
  auto block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int base = 0; base < n; base += 256) {
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[0][threadIdx.x], &in[base + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[base + threadIdx.x] = stage[0][threadIdx.x] * 2.f;
    pipe.consumer_release();
  }
  block.sync();
}

__device__ void cp_async_4(void* smem, const void* gmem) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(addr), "l"(gmem));
}
