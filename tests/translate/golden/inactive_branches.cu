// Identifiers inside #if branches that are inactive in this configuration are renamed too.
#include <cuda_runtime.h>
int main() {
  void* data = nullptr;
#if defined(SOME_OTHER_PLATFORM)
  // CHECK: hipMallocManaged(&data, 16);
  cudaMallocManaged(&data, 16);
#else
  // CHECK: hipMalloc(&data, 16);
  cudaMalloc(&data, 16);
#endif
#if 0
  // CHECK: hipHostFree(data);
  cudaFreeHost(data);
#endif
  return 0;
}
