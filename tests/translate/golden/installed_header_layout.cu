// --installed-header-layout (the repository pass's default): library headers at the path ROCm installs them
// (checked: hipblas/, hipsparse/, hipsolver/ in HIP 5.7.1's and 6.4.3's include trees, hipblaslt/ in 6.4.3's, none
// at the top level; hip/hiprtc.h in 5.2.3, 5.7.1 and 6.4.3). Without the option migrate-hipify keeps HIPIFY's spelling
// (headers_table records, HIPIFY's lit suite), and a target older than the layout keeps it too
// (installed_header_layout_hip52.cu).
// ARGS: --installed-header-layout
// CHECK: #include <hipblas/hipblas.h>
#include <cublas_v2.h>
// CHECK: #include <hipsparse/hipsparse.h>
#include <cusparse.h>
// CHECK: #include <hipsolver/hipsolver.h>
#include <cusolverDn.h>
// CHECK: #include <hip/hiprtc.h>
#include <nvrtc.h>
// CHECK: #include <hiprand/hiprand.h>
#include <curand.h>
// CHECK: #include <hipblaslt/hipblaslt.h>
#include <cublasLt.h>
// CHECK-NOT: #include <hipblas.h>
// CHECK: hipblasHandle_t handle;
cublasHandle_t handle;
