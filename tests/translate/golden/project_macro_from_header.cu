// A macro the project defines in one of its headers (CUDA_CHECK) and uses here is the project's own name, not an
// unconverted CUDA one: no TR008 note, not counted as unconverted (the demo's effort counted it 30 times).
// A CUDA-looking name that is not a project macro and that the program does not declare (own_declared_names.cu:
// declared names are its own) is still reported, once, and counted at its use (here in a macro body).
// CHECK: #define VENDOR_CALL(p) cudaUnknownThing(p)
// CHECK: CUDA_CHECK(hipMalloc(&data, 4));
// JSON: "findings"
// JSON: 'cudaUnknownThing' looks like a CUDA name
// JSON-NOT: CUDA_CHECK
// JSON: "translation"
// JSON: "unconverted": 1
#include "include/check_macro.cuh"
#define VENDOR_CALL(p) cudaUnknownThing(p)
int main() {
  int* data;
  CUDA_CHECK(cudaMalloc(&data, 4));
  return 0;
}
