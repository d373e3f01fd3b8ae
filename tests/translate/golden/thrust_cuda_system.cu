// Thrust's CUDA-system policies (HeCBench nosync: thrust::cuda::par.on(stream)): rocThrust has them under `hip`
// (thrust::hip::par, thrust::hip::par_nosync, thrust::system::hip::...), and no `thrust::cuda`. A `cuda::` that
// does not follow `thrust::` (libcu++'s cuda::std) is not touched here. Must compile for gfx942 with rocThrust 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
int Sum(cudaStream_t s, thrust::device_vector<int>& v) {
  // CHECK: auto policy = thrust::hip::par.on(s);
  auto policy = thrust::cuda::par.on(s);
  thrust::sequence(policy, v.begin(), v.end());
  // CHECK: auto nosync = thrust::hip::par_nosync.on(s);
  auto nosync = thrust::cuda::par_nosync.on(s);
  // CHECK: int total = thrust::reduce(thrust::system::hip::par.on(s), v.begin(), v.end());
  int total = thrust::reduce(thrust::system::cuda::par.on(s), v.begin(), v.end());
  return total + thrust::reduce(nosync, v.begin(), v.end());
}
