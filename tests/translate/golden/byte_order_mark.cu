// A source that starts with a UTF-8 byte-order mark (HeCBench btree-cuda's map_kernels.cu): what the translator
// puts first in the file (the warp-sync define, the runtime include) goes after the mark; a mark moved to the
// second line is a stray U+FEFF, which clang rejects. The output must compile with hipcc.
// COMPILE: --offload-arch=gfx90a
// CHECK: #define HIP_ENABLE_WARP_SYNC_BUILTINS 1
// CHECK: #include <hip/hip_runtime.h>
// CHECK: hipMalloc(&data, 64 * sizeof(float));
__global__ void Step(float* data) {
  data[threadIdx.x] += 1.0f;
  __syncwarp();
}
void Run() {
  float* data = nullptr;
  cudaMalloc(&data, 64 * sizeof(float));
  Step<<<1, 64>>>(data);
}
