// A program's own atomicMax on double and atomicMin on float (HeCBench lebesgue, michalewicz: "redefinition of
// 'atomicMax'"): CUDA has them only on integers, HIP declares the float and double overloads with the same
// meaning. The definition stays for HIP's NVIDIA platform, guarded off on AMD, where HIP's is used; an integer
// overload and a prototype are left alone. Must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: own_float_atomic_max.cu:{{[0-9]+}}:{{[0-9]+}}: note: the program's own atomicMax(double*, double) is kept for HIP's NVIDIA platform only{{.*}}[TR013]
#include <cuda_runtime.h>
// CHECK: #if !defined(__HIP_PLATFORM_AMD__)
// CHECK-NEXT: __device__ __forceinline__
// CHECK-NEXT: double atomicMax(double *address, double val)
__device__ __forceinline__
double atomicMax(double *address, double val)
{
  unsigned long long *ptr = (unsigned long long *)address;
  unsigned long long ret = *ptr;
  while (val > __longlong_as_double(ret)) {
    unsigned long long old = ret;
    if ((ret = atomicCAS(ptr, old, __double_as_longlong(val))) == old) break;
  }
  return __longlong_as_double(ret);
}
// CHECK: return __longlong_as_double(ret);
// CHECK-NEXT: }
// CHECK-NEXT: #endif
// CHECK: #if !defined(__HIP_PLATFORM_AMD__)
// CHECK-NEXT: __device__ float atomicMin(float *addr, float value)
__device__ float atomicMin(float *addr, float value)
{
  unsigned *ptr = (unsigned *)addr;
  unsigned ret = *ptr;
  while (value < __uint_as_float(ret)) {
    unsigned old = ret;
    if ((ret = atomicCAS(ptr, old, __float_as_uint(value))) == old) break;
  }
  return __uint_as_float(ret);
}
// CHECK-NOT: #if !defined(__HIP_PLATFORM_AMD__)
__device__ unsigned atomicMax(unsigned *p, int v);
__global__ void Reduce(double* out, float* low, const double* in) {
  atomicMax(out, in[threadIdx.x]);
  atomicMin(low, static_cast<float>(in[threadIdx.x]));
}
