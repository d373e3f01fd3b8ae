// A macro the project defines in one of its headers (CUDA_CHECK) and uses here is the project's own name, not an
// unconverted CUDA one: no TR008 note, not counted as unconverted (the demo's effort counted it 30 times).
// A CUDA-looking name that is not a project macro is still reported, once, and counted at each of its 2 uses.
// CHECK: CUDA_CHECK(hipMalloc(&data, 4));
// CHECK: cudaUnknownThing(data);
// JSON: "findings"
// JSON: 'cudaUnknownThing' looks like a CUDA name
// JSON-NOT: CUDA_CHECK
// JSON: "translation"
// JSON: "unconverted": 2
#include "include/check_macro.cuh"
void cudaUnknownThing(int*);
int main() {
  int* data;
  CUDA_CHECK(cudaMalloc(&data, 4));
  cudaUnknownThing(data);
  return 0;
}
