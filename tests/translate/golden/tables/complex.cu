// cuComplex table: every cuComplex.h API has a HIP equivalent, so the located report checked here is the note
// for a cuComplex-looking name no table knows (-v shows notes).
// ARGS: -v
// CHECK: #include "hip/hip_complex.h"
#include "cuComplex.h"
// CHECK: #ifdef HIP_INCLUDE_HIP_HIP_COMPLEX_H
#ifdef CU_COMPLEX_H_
// CHECK: __host__ __device__ inline hipFloatComplex Scale(hipFloatComplex value, float factor) {
__host__ __device__ inline cuFloatComplex Scale(cuFloatComplex value, float factor) {
  // CHECK: return make_hipFloatComplex(hipCrealf(value) * factor, hipCimagf(value) * factor);
  return make_cuFloatComplex(cuCrealf(value) * factor, cuCimagf(value) * factor);
}
#endif
// STDERR: complex.cu:[[@LINE+2]]:23: note: 'cuCpowf' looks like a CUDA name but no mapping table knows it; left as is. [TR008]
// CHECK: #define COMPLEX_POWER cuCpowf
#define COMPLEX_POWER cuCpowf
int main() {
  // CHECK: hipDoubleComplex a = make_hipDoubleComplex(1.0, 2.0);
  cuDoubleComplex a = make_cuDoubleComplex(1.0, 2.0);
  // CHECK: hipDoubleComplex b = hipCmul(a, hipConj(a));
  cuDoubleComplex b = cuCmul(a, cuConj(a));
  // CHECK: float magnitude = hipCabsf(hipCaddf(make_hipFloatComplex(1, 0), make_hipFloatComplex(0, 1)));
  float magnitude = cuCabsf(cuCaddf(make_cuFloatComplex(1, 0), make_cuFloatComplex(0, 1)));
  // CHECK: return hipCreal(b) > 0 && magnitude > 0 ? 0 : 1;
  return cuCreal(b) > 0 && magnitude > 0 ? 0 : 1;
}
