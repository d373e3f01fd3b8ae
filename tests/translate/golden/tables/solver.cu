// cuSOLVER table (dense): handle, LU factorisation and its workspace query; an API hipSOLVER lacks stays, with a
// located warning.
// CHECK: #include <hipsolver.h>
#include <cusolverDn.h>
int main() {
  // CHECK: hipsolverHandle_t handle;
  cusolverDnHandle_t handle;
  // CHECK: hipsolverDnCreate(&handle);
  cusolverDnCreate(&handle);
  float* a = nullptr;
  int work_size = 0;
  // CHECK: hipsolverDnSgetrf_bufferSize(handle, 4, 4, a, 4, &work_size);
  cusolverDnSgetrf_bufferSize(handle, 4, 4, a, 4, &work_size);
  cusolverDnIRSParams_t parameters;
  // STDERR: solver.cu:[[@LINE+2]]:3: warning: 'cusolverDnIRSParamsCreate' is unsupported in 'HIP'. [TR001]
  // CHECK: cusolverDnIRSParamsCreate(&parameters);
  cusolverDnIRSParamsCreate(&parameters);
  // CHECK: hipsolverDnDestroy(handle);
  cusolverDnDestroy(handle);
  return work_size;
}
