// With a target before the installed layout (HIP 5.2 here), --installed-header-layout keeps HIPIFY's top-level
// spelling for the libraries ROCm moved later, and uses the folder for those it already had there.
// ARGS: --installed-header-layout --target-hip-version=5.2
// CHECK: #include <hipblas.h>
#include <cublas_v2.h>
// CHECK: #include <hip/hiprtc.h>
#include <nvrtc.h>
