#pragma once
// The NVIDIA proof must not certify untranslated code: a translated source that still names a CUDA runtime,
// driver or library API (cublasDgemm left in place links the real cuBLAS and "passes") is refused before it is
// built. The check is lexical, over the translated files only (comments, string literals and #include names are
// not code), with every CUDA name the mapping tables know -- what `#pragma GCC poison` would do to those files,
// without tripping CUDA's and Thrust's own headers, which name the same APIs and are included after the layer.
// Only code the preprocessor keeps for the AMD build the translation is for counts: `#if 0`, `#ifdef
// __HIP_PLATFORM_NVIDIA__`, `#if HIP_VERSION < 50000000` branches are dropped there (HIP 6.4, the release the
// layer stands for); a condition on anything else is taken as kept.
#include <filesystem>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::validate {

struct RefusedCuda {
  // CUDA runtime/driver/library identifiers from the tables (device intrinsics, CUB and cooperative groups, whose
  // HIP spellings are often the same, are not included), WMMA's namespace `nvcuda`, and the cache-hint loads and
  // stores (__ldcs, __stcs, ...: HIP has three of them for __half only); not those a file defines for HIP with the
  // translator's shims (HIPFORGE_CACHE_HINT_SHIM, HIPFORGE_LEGACY_LAUNCH_SHIM for cuParamSetv, cuLaunchGrid, ...).
  std::set<std::string, std::less<>> names;
  // `#include <...>` of CUDA headers HIP has no counterpart for (mma.h, cuda/pipeline, cuda/barrier, ...).
  std::set<std::string, std::less<>> headers;
};
RefusedCuda RefusedCudaNames(std::span<const std::span<const translate::ApiMapping>> tables);

struct CudaNameUse {
  std::string path;  // as given
  unsigned line = 0;
  unsigned column = 0;
  std::string name;  // the identifier, or `#include <mma.h>`
};

// Uses of `refused` in one translated source's code.
std::vector<CudaNameUse> FindCudaNames(std::string_view path, std::string_view content, const RefusedCuda& refused);

// Every C/C++/CUDA/HIP source and header under `root` (relative paths in the result).
std::vector<CudaNameUse> FindCudaNamesInTree(const std::filesystem::path& root, const RefusedCuda& refused);

}  // namespace hipforge::validate
