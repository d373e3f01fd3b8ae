// RUNS: 2
// The second translation of an unchanged file comes from the content-hash cache, with the same output.
// JSON: "from_cache": true
#include <cuda_runtime.h>
int main() {
  int* data;
  // CHECK: hipMalloc(&data, 4);
  cudaMalloc(&data, 4);
  return 0;
}
