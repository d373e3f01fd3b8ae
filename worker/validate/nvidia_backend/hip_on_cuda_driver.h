#pragma once
// HIP's driver API (hipModule*, hipCtx*, hipDrv*, hipMemcpyHtoD, ...) in the HIP-on-NVIDIA header set, typed as HIP
// 6.4 declares it (hip_runtime_api.h) and as HIP's own nvidia_detail wraps it: inline functions that take HIP's
// parameter types, convert them to the CUDA driver's and return hipError_t (hipforge_from_cu). Passing the
// arguments through to the CUDA function unchanged is right only where every HIP parameter type is the CUDA one
// under the layer's mappings; where it is not (hipDrvGetErrorString takes a hipError_t, CUDA 13's cuCtxCreate is
// cuCtxCreate_v4 with a parameter more, hipArray_t is the runtime's cudaArray_t, not CUarray) the name is either
// written here by hand or left undefined. tests/validate/nvidia_backend/hip_on_cuda_header_test.cc checks every
// driver function the layer defines against HIP 6.4's prototypes.
#include <string_view>

namespace hipforge::validate {

enum class DriverWrapping {
  kHandWritten,  // HipOnCudaDriverFunctions() defines it
  kPassThrough,  // the generated `hipX(...) -> hipforge_from_cu(cuX(...))`: HIP's parameter types are CUDA's
  kUndefined,    // HIP's parameter or result types differ from CUDA's and nothing converts them yet
};

// How the header set provides the driver function `hip_name` (a table record with library kDriver).
DriverWrapping HowToWrapDriverFunction(std::string_view hip_name);

// The hand-written functions (kHandWritten), C++ text for the common header after the table mappings.
std::string_view HipOnCudaDriverFunctions();

}  // namespace hipforge::validate
