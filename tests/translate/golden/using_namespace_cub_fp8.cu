// `using namespace cub;` then a header that brings in FP8 (ggml's ssm-scan.cu: cub, then common.cuh ->
// cuda_fp8.h): translated, HIP 6.4's amd_hip_fp8.h calls `internal::` unqualified, which is ambiguous with
// hipcub::internal after `using namespace hipcub;` (23 errors for gfx942). hip_fp8.h is included just before the
// directive, with a note. The output must compile for gfx942 with HIP 6.4.
// ARGS: -v --installed-header-layout
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// STDERR: using_namespace_cub_fp8.cu:[[@LINE+6]]:1: note: hip/hip_fp8.h is included before `using namespace hipcub;`{{.*}}[TR013]
// CHECK: #include <hipcub/hipcub.hpp>
// CHECK: #include <hip/hip_fp8.h> //{{.*}}
// CHECK-NEXT: using namespace hipcub;
// CHECK-NEXT: #include <hip/hip_fp8.h>
#include <cub/cub.cuh>
using namespace cub;
#include <cuda_fp8.h>
// CHECK: float Widen(__hip_fp8_e4m3 x) { return float(x); }
float Widen(__nv_fp8_e4m3 x) { return float(x); }
