#include <hip/hip_runtime.h>
#include <hipblaslt/hipblaslt.h>
#include <hipfft/hipfft.h>
#include <hiprand/hiprand.h>
#include <hipsolver/hipsolver.h>
#include <hipsparse/hipsparse.h>

// Host calls into each library, so each one is linked; with no GPU they fail at run time, which is not tested.
int main() {
  hipsparseHandle_t sparse;
  hipsolverHandle_t solver;
  hiprandGenerator_t generator;
  hipfftHandle plan;
  hipblasLtHandle_t lt;
  int failures = hipsparseCreate(&sparse) != HIPSPARSE_STATUS_SUCCESS;
  failures += hipsolverCreate(&solver) != HIPSOLVER_STATUS_SUCCESS;
  failures += hiprandCreateGenerator(&generator, HIPRAND_RNG_PSEUDO_DEFAULT) != HIPRAND_STATUS_SUCCESS;
  failures += hipfftPlan1d(&plan, 64, HIPFFT_C2C, 1) != HIPFFT_SUCCESS;
  failures += hipblasLtCreate(&lt) != HIPBLAS_STATUS_SUCCESS;
  return failures;
}
