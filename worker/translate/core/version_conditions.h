#pragma once
// Version branches kept meaningful (issue 14 item 2): in `#if/#elif/#ifdef/#ifndef` lines, CUDA version
// macros (tables/version_macros.h) become HIP_VERSION-based expressions and `defined(X)` HIP's own macro,
// so that the branch whose APIs the target HIP provides is taken; each rewrite gets a located TR014 note. The
// macro's value in code (`CUDA_VERSION / 1000`, a #define's body) is rewritten the same way, so that code and
// branch agree. Every chain with a version condition is then evaluated for the target HIP release: a chain whose
// rewrite would select an `#error` (its own or a nested chain's) is left as written with a located warning (never
// switched into its #error); one that may select one says so. The token pass still translates every branch.
// Per feature: the table gives one API level per HIP release, but HIP does not provide every API CUDA had at
// that level (launch attributes of CUDA 11.8, __hmax2 of 11.7). When the branch a chain selects uses a name the
// API tables say the target HIP lacks (also through a macro the branch #defines and the file tests elsewhere,
// or by leaving out a branch that defines such a name itself), the macro reads the highest lower value under
// which the chain selects a branch HIP provides (an #error is none): a located note names the API, or a warning
// when none does.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/core/preprocessor_condition.h"
#include "worker/translate/tables/api_mapping.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct DirectiveToken {
  ConditionToken::Kind kind;
  std::string_view text;
  uint32_t offset;
};

struct Directive {
  std::string_view name;               // "if", "elif", "ifdef", "ifndef", "else", "endif", "error", ...
  uint32_t offset;                     // of the '#'
  std::vector<DirectiveToken> tokens;  // after the directive name, to the end of the line
};

struct VersionConditionEdit {
  uint32_t offset;
  uint32_t length;
  std::string replacement;
};

struct VersionConditionFinding {
  Severity severity;
  uint32_t offset;
  std::string message;
};

struct VersionConditionResult {
  std::vector<VersionConditionEdit> edits;
  std::vector<VersionConditionFinding> findings;  // all under rule TR014
  std::set<uint32_t> handled_offsets;             // tokens rewritten here (the renamer leaves them)
};

struct VersionConditionOptions {
  ApiVersion target_hip_version;
  bool miopen = false;  // cuDNN is translated to MIOpen (CUDNN_* macros rewritten too)
  const std::set<std::string>* project_macros = nullptr;  // names the project #defines itself: left alone
  // The file's own `#define NAME <integer>` (ggml's CUDART_HMAX 11070), read in conditions.
  const std::map<std::string, int64_t, std::less<>>* project_values = nullptr;
  // Whether the target HIP lacks this CUDA API name (the API tables); empty: no per-feature choice.
  std::function<bool(std::string_view)> hip_lacks;
};

// `directives`: every conditional, #error and #define line of the file, in order. `code`: the tokens outside
// directive lines, in order (what each branch uses, for the per-feature choice).
VersionConditionResult RewriteVersionConditions(const std::vector<Directive>& directives,
                                                std::span<const DirectiveToken> code,
                                                const VersionConditionOptions& options);

}  // namespace hipforge::translate
