// CUB's own headers (HeCBench moe: cub/util_type.cuh) are hipCUB's main header; several become one include.
// Must compile for gfx942 with hipCUB 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// JSON: "unsupported": 0
// CHECK: #include <hipcub/hipcub.hpp>
// CHECK-NOT: #include <hipcub/hipcub.hpp>
// CHECK-NOT: cub/
#include <cub/block/block_reduce.cuh>
#include <cub/util_type.cuh>
template <int Threads>
__global__ void ArgMax(const float* in, int* out) {
  using Pair = cub::KeyValuePair<int, float>;
  using Reduce = cub::BlockReduce<Pair, Threads>;
  __shared__ typename Reduce::TempStorage storage;
  // CHECK: const Pair best = Reduce(storage).Reduce(Pair(threadIdx.x, in[threadIdx.x]), hipcub::ArgMax());
  const Pair best = Reduce(storage).Reduce(Pair(threadIdx.x, in[threadIdx.x]), cub::ArgMax());
  if (threadIdx.x == 0) *out = best.key;
}
template __global__ void ArgMax<128>(const float*, int*);
