// A unit whose code sits in an `extern "C"` block opened before its first include (HeCBench lavaMD's
// util/timer/timer.cu): the runtime include the translator adds goes before the block and its
// `#ifdef __cplusplus`, not at the first include inside it, where hip_runtime.h's templates would get C linkage
// ("templates must have C++ linkage"; nvcc includes cuda_runtime.h before the file). Must compile for gfx942.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #ifdef __cplusplus
// CHECK-NEXT: extern "C" {
// CHECK-NEXT: #endif
// CHECK-NOT: #include <hip/hip_runtime.h>
// CHECK: #include <stdlib.h>
#ifdef __cplusplus
extern "C" {
#endif
#include <stdlib.h>
#include <sys/time.h>
long long get_time() {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (tv.tv_sec * 1000000) + tv.tv_usec;
}
#ifdef __cplusplus
}
#endif
