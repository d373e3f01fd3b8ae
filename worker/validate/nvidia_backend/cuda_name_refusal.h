#pragma once
// The NVIDIA proof must not certify untranslated code: a translated source that still names a CUDA runtime,
// driver or library API (cublasDgemm left in place links the real cuBLAS and "passes") is refused before it is
// built. The check is lexical, over the translated files only (comments, string literals and #include names are
// not code), with every CUDA name the mapping tables know -- what `#pragma GCC poison` would do to those files,
// without tripping CUDA's and Thrust's own headers, which name the same APIs and are included after the layer.
#include <filesystem>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::validate {

// CUDA runtime/driver/library identifiers from the tables (device intrinsics, CUB and cooperative groups, whose
// HIP spellings are often the same, are not included).
std::set<std::string, std::less<>> RefusedCudaNames(std::span<const std::span<const translate::ApiMapping>> tables);

struct CudaNameUse {
  std::string path;  // as given
  unsigned line = 0;
  unsigned column = 0;
  std::string name;
};

// Uses of `names` in one translated source's code.
std::vector<CudaNameUse> FindCudaNames(std::string_view path, std::string_view content,
                                       const std::set<std::string, std::less<>>& names);

// Every C/C++/CUDA/HIP source and header under `root` (relative paths in the result).
std::vector<CudaNameUse> FindCudaNamesInTree(const std::filesystem::path& root,
                                             const std::set<std::string, std::less<>>& names);

}  // namespace hipforge::validate
