// A macro the project defines in one of its headers (CUDA_CHECK) and uses here is the project's own name, not an
// unconverted CUDA one: no TR008 note, not counted as unconverted (the demo's effort counted it 30 times).
// A CUDA-looking name that is not a project macro and that this file does not declare (here: a header's) is still
// reported, once, and counted at its use (own_declared_names.cu: names the file declares itself are not).
// CHECK: CUDA_CHECK(hipMalloc(&data, 4));
// CHECK: cudaUnknownThing(data);
// JSON: "findings"
// JSON: 'cudaUnknownThing' looks like a CUDA name
// JSON-NOT: CUDA_CHECK
// JSON: "translation"
// JSON: "unconverted": 1
#include "include/check_macro.cuh"
#include "include/unknown_api.cuh"
int main() {
  int* data;
  CUDA_CHECK(cudaMalloc(&data, 4));
  cudaUnknownThing(data);
  return 0;
}
