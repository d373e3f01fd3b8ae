#pragma once
// CUDA version macros (CUDA_VERSION, CUBLAS_VERSION, __CUDACC_VER_MAJOR__, CUDNN_MAJOR, ...) and what a
// translated `#if` reads them as: the CUDA API level whose calls the target HIP release provides. HIP defines
// none of them, so untranslated they read 0 and select legacy code or an #error. Data with versions, like
// the API tables; docs/mappings/version-macros.md is generated from it.
//
// Not here, on purpose: NCCL_VERSION_CODE (RCCL defines it), THRUST_VERSION / CUB_VERSION (rocThrust and
// hipCUB define their own), __CUDA_ARCH__ (a device architecture, not a version: rule HB204).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

// From HIP `since` on, the macro reads `value`.
struct VersionLevel {
  ApiVersion since;
  int64_t value = 0;
};

struct VersionMacro {
  std::string_view cuda_name;  // "CUDA_VERSION"
  ApiLibrary library = ApiLibrary::kRuntime;
  // What `defined(X)` / `#ifdef X` becomes: a HIP macro defined wherever X was; empty: left as it is.
  std::string_view defined_by;
  std::span<const VersionLevel> levels;  // ascending by `since`; the first applies below it too
  bool needs_miopen = false;             // rewritten only when cuDNN is translated to MIOpen
  std::string_view why;                  // the reason for the levels, for the docs and the located note
};

std::span<const VersionMacro> VersionMacros();
const VersionMacro* FindVersionMacro(std::string_view cuda_name);

// The value `macro` reads as under HIP `hip`.
int64_t VersionMacroValue(const VersionMacro& macro, ApiVersion hip);
// The preprocessor expression a condition gets in place of the macro, on HIP's own HIP_VERSION, e.g.
// "(HIP_VERSION >= 60000000 ? 12000 : 11000)"; a plain number when the value does not depend on HIP.
std::string VersionMacroExpression(const VersionMacro& macro);
// The same with every level's value at most `cap`: the macro read below a feature the target HIP lacks
// (version_conditions.h, per-feature choice).
std::string VersionMacroExpression(const VersionMacro& macro, int64_t cap);

}  // namespace hipforge::translate
