// ARGS: --skip-excluded-preprocessor-conditional-blocks
// With the opt-out, inactive branches stay as they are; active code is translated.
#include <cuda_runtime.h>
int main() {
  void* data = nullptr;
#if defined(SOME_OTHER_PLATFORM)
  // CHECK: cudaMallocManaged(&data, 16);
  cudaMallocManaged(&data, 16);
#else
  // CHECK: hipMalloc(&data, 16);
  cudaMalloc(&data, 16);
#endif
  return 0;
}
