// `register` (HeCBench maxFlops, ntt, mpc): C++17 removed the storage class and clang's HIP mode rejects it
// ("ISO C++17 does not allow 'register'"), nvcc only warns. It has had no effect since C++11, so the word goes;
// a string, a comment and an explicit register variable (`register ... asm(...)`, which needs it) keep it.
// The output must compile for gfx942 with HIP 6.4 in C++17.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: register_storage.cu:[[@LINE+5]]:3: note: 'register' removed (3 in this file){{.*}}[TR013]
// JSON: "storage_class": 3
#include <cstdio>
template <typename T>
__global__ void Add(T* data, int n) {
  register T s = data[threadIdx.x], s2 = 10.0f - s;
  // CHECK: T s = data[threadIdx.x], s2 = 10.0f - s;
  for (register int i = 0; i < n; ++i) s = s2 - s;
  // CHECK: for (int i = 0; i < n; ++i) s = s2 - s;
  data[threadIdx.x] = s;
}
static unsigned long long Hash(register unsigned long long x) {
  // CHECK: static unsigned long long Hash(unsigned long long x) {
  return x * 0x9E3779B97F4A7C15ull;
}
void Report(float* data) {
#if !defined(__CUDA_ARCH__) && defined(__x86_64__)
  // CHECK: register unsigned long long stack_pointer asm("rsp");
  register unsigned long long stack_pointer asm("rsp");
#else
  unsigned long long stack_pointer = 0;
#endif
  // CHECK: std::printf("register %llu %llu\n", Hash(1), stack_pointer);
  std::printf("register %llu %llu\n", Hash(1), stack_pointer);
  Add<float><<<1, 64>>>(data, 4);
}
