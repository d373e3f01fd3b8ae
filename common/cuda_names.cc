#include "common/cuda_names.h"

#include <initializer_list>

namespace hipforge {
namespace {

bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

}  // namespace

bool IsCudaOnlyIdentifier(std::string_view word) {
  if (word.starts_with("cuda") && word.size() > 4 && IsUpper(word[4])) return true;  // cudaMalloc, cudaStream_t
  if (word.starts_with("CUDA_") && word.size() > 5 && (IsUpper(word[5]) || word[5] == '_')) return true;
  for (std::string_view library : {"cublas", "curand", "cufft", "cusparse", "cusolver", "cudnn", "nccl"}) {
    if (word.starts_with(library) && word.size() > library.size() && IsUpper(word[library.size()])) return true;
  }
  // CUDA's warp-synchronous intrinsics: __shfl_down_sync, __ballot_sync, __match_any_sync, __syncwarp.
  if ((word.starts_with("__") && word.ends_with("_sync")) || word == "__syncwarp") return true;
  if (word.starts_with("nvcuda") || word.starts_with("cooperative_groups")) return true;
  if (word.starts_with("__nv_") && word.size() > 5) return true;  // __nv_bfloat16
  return word.starts_with("__CUDA");                              // nvcc's macros: __CUDACC__, __CUDA_ARCH__
}

bool LooksLikeCudaApiName(std::string_view name) {
  auto starts = [&](std::string_view prefix) {
    return name.size() > prefix.size() && name.substr(0, prefix.size()) == prefix;
  };
  if (starts("cuda") || starts("CUDA_") || starts("CU_") || starts("CUDNN_") || starts("CUBLAS_") ||
      starts("CUSPARSE_") || starts("CUFFT_") || starts("CURAND_") || starts("CUSOLVER")) {
    // CUDA_VERSION-style feature macros are conditions, not API uses.
    return name != "CUDA_VERSION" && name != "CUDART_VERSION";
  }
  if (starts("cu") && name.size() > 2) {
    const char next = name[2];
    // cuMemAlloc, cublasCreate, cudnnCreate, cufftPlan1d, curandCreateGenerator, cusparse..., cusolver...
    if (next >= 'A' && next <= 'Z') return true;
    for (std::string_view library : {"cublas", "cudnn", "cufft", "curand", "cusparse", "cusolver", "cutensor"}) {
      if (starts(library)) return true;
    }
  }
  return false;
}

bool IsGpuLanguageName(std::string_view name) {
  return name.starts_with("__") || name == "threadIdx" || name == "blockIdx" || name == "blockDim" ||
         name == "gridDim" || name == "warpSize";
}

}  // namespace hipforge
