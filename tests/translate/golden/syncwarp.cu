// __syncwarp: no HIP release (checked 5.2.3, 5.7.1, 6.4.3) declares it, so each call becomes a wavefront-scope
// release fence, the wave barrier and an acquire fence (the mask is dropped: a wavefront's lanes are not
// scheduled independently), with one located note; a declaration or member of the same spelling stays. The
// output must compile for gfx942 with HIP 6.4 (checked where that toolchain is present) and with hipcc.
// ARGS: -v
// COMPILE: --offload-arch=gfx90a
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -fsyntax-only
// STDERR: syncwarp.cu:[[@LINE+13]]:5: note: HIP 6.4 has no __syncwarp{{.*}}[TR013]
// STDERR-NOT: has no __syncwarp
#include <cuda_runtime.h>
// CHECK: struct Lanes { __device__ void __syncwarp() {} };
struct Lanes { __device__ void __syncwarp() {} };
__global__ void WarpSum(float* data) {
  __shared__ float partial[64];
  const unsigned lane = threadIdx.x % 32;
  partial[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < 32) {
    // CHECK: partial[lane] += partial[lane + 16];
    partial[lane] += partial[lane + 16];
    // CHECK: (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    __syncwarp();
    partial[lane] += partial[lane + 8];
    // CHECK: (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
    __syncwarp(0xffffffffu);
  }
  // Right after a directive (ggml's fattn-vec.cuh): the directive's last word is no return type.
#ifndef PROJECT_USE_HIP
  // CHECK: (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
  __syncwarp();
#endif
  // CHECK: Lanes lanes; lanes.__syncwarp();
  Lanes lanes; lanes.__syncwarp();
  if (threadIdx.x == 0) data[0] = partial[0];
}
