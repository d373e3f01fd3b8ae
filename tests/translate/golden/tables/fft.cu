// cuFFT table: plans, transform types and execution; an API hipFFT lacks stays, with a located warning.
// CHECK: #include <hipfft/hipfft.h>
#include <cufft.h>
// CHECK: #include <hipfft/hipfftXt.h>
#include <cufftXt.h>
int main() {
  // CHECK: hipfftHandle plan;
  cufftHandle plan;
  // CHECK: hipfftPlan1d(&plan, 256, HIPFFT_C2C, 1);
  cufftPlan1d(&plan, 256, CUFFT_C2C, 1);
  // CHECK: hipfftComplex* data = nullptr;
  cufftComplex* data = nullptr;
  // CHECK: hipfftExecC2C(plan, data, data, HIPFFT_FORWARD);
  cufftExecC2C(plan, data, data, CUFFT_FORWARD);
  cudaLibXtDesc* descriptor = nullptr;
  // STDERR: fft.cu:[[@LINE+2]]:3: warning: 'cufftXtMalloc' is unsupported in 'HIP'. [TR001]
  // CHECK: cufftXtMalloc(plan, &descriptor, CUFFT_XT_FORMAT_INPLACE);
  cufftXtMalloc(plan, &descriptor, CUFFT_XT_FORMAT_INPLACE);
  // CHECK: hipfftDestroy(plan);
  cufftDestroy(plan);
  return 0;
}
