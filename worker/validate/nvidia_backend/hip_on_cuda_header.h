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

// Relative path (e.g. "hip/hip_runtime.h") -> file content.
std::map<std::string, std::string> GenerateHipOnCudaHeaders(
    std::span<const std::span<const translate::ApiMapping>> tables);

}  // namespace hipforge::validate
