#pragma once
// HIP on NVIDIA without HIP's own nvidia_detail headers (HIP 5.2's do not compile against CUDA 13):
// a small header set, generated from OUR mapping tables read backwards (hipX -> cudaX), that lets
// nvcc compile translated HIP code. Only names that start with "hip"/"HIP" are defined as macros,
// so CUDA's own headers (included first) are never rewritten; warp intrinsics HIP still spells
// without _sync and the launch macro are written by hand.
#include <map>
#include <span>
#include <string>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::validate {

// The HIP release the header set stands for (HIP_VERSION_MAJOR/MINOR/PATCH in its hip/hip_version.h): rocm-6.4's
// hip/hip_version.h, so that `#if HIP_VERSION >= ...` takes the branch HIP 6.4 takes. hip_on_cuda_toolchain.h's
// kHipOnCudaHipRelease names the same release.
struct HipVersionNumbers {
  int major = 0;
  int minor = 0;
  int patch = 0;
};
inline constexpr HipVersionNumbers kHipOnCudaHipVersion{6, 4, 43484};

// Relative path (e.g. "hip/hip_runtime.h") -> file content.
std::map<std::string, std::string> GenerateHipOnCudaHeaders(
    std::span<const std::span<const translate::ApiMapping>> tables);

}  // namespace hipforge::validate
