// An API without a HIP equivalent is left as written, with a located warning.
// STDERR: unsupported_api.cu:7:3: warning: 'cudaInitDevice' is unsupported in 'HIP'. [TR001]
// JSON: "unsupported": 1
#include <cuda_runtime.h>
int main() {
  // CHECK: cudaInitDevice(0, 0, 0);
  cudaInitDevice(0, 0, 0);
  return 0;
}
