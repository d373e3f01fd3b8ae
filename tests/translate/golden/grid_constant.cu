// __grid_constant__ (CUDA 11.7+, HeCBench attentionMultiHeadKVCache) marks a const kernel parameter whose address
// may be taken without a copy; HIP has no such attribute and needs none (a HIP kernel's parameter can be
// addressed and reads the same values), so the word goes. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// JSON: "unsupported": 0
struct Params { const float* in; float* out; int n; };
// CHECK: __global__ void Copy(const Params params) {
__global__ void Copy(__grid_constant__ const Params params) {
  const Params* p = &params;
  if (threadIdx.x < p->n) p->out[threadIdx.x] = p->in[threadIdx.x];
}
