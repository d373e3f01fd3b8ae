// CUB table: the include, the namespace (cub:: -> hipcub::) and CUB macros; a macro hipCUB lacks stays, with a
// located warning.
// CHECK: #include <hipcub/hipcub.hpp>
#include <cub/cub.cuh>
// CHECK: __global__ void BlockSum(const int* in, int* out) {
__global__ void BlockSum(const int* in, int* out) {
  // CHECK: using BlockReduce = hipcub::BlockReduce<int, 128>;
  using BlockReduce = cub::BlockReduce<int, 128>;
  __shared__ typename BlockReduce::TempStorage storage;
  int total = BlockReduce(storage).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = total;
}
int main() {
  int *in = nullptr, *out = nullptr;
  void* scratch = nullptr;
  size_t bytes = 0;
  // CHECK: hipcub::DeviceReduce::Sum(scratch, bytes, in, out, 128);
  cub::DeviceReduce::Sum(scratch, bytes, in, out, 128);
  // CHECK: return HipcubDebug(hipGetLastError()) == hipSuccess ? 0 : 1;
  return CubDebug(cudaGetLastError()) == cudaSuccess ? 0 : 1;
}
// STDERR: cub.cu:[[@LINE+2]]:17: warning: 'CubDebugExit' is unsupported in 'HIP'. [TR001]
// CHECK: #define CHECKED CubDebugExit
#define CHECKED CubDebugExit
