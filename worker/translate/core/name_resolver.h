#pragma once
// Decides what one CUDA name becomes under the translation options: the HIP (or ROC) name to emit, or a
// located warning explaining why it stays. Shared by the AST and lexer paths so both decide identically.
#include <string>
#include <string_view>

#include "worker/translate/core/translate_options.h"
#include "worker/translate/tables/mapping_index.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

// Rule ids of the translator's own diagnostics (meanings below; reported as Finding::rule_id).
inline constexpr std::string_view kRuleUnsupported = "TR001";       // no HIP equivalent
inline constexpr std::string_view kRuleNotInTargetHip = "TR002";    // HIP has it, but not in the target release
inline constexpr std::string_view kRuleExperimental = "TR003";      // needs --experimental
inline constexpr std::string_view kRuleBlasV2Only = "TR004";        // needs cublas_v2.h
inline constexpr std::string_view kRuleDeprecatedInCuda = "TR005";  // translated; note only
inline constexpr std::string_view kRuleWarpMask = "TR006";          // mask not provably full for HIP < 6.2
inline constexpr std::string_view kRuleFallback = "TR007";          // file translated by the lexer fallback
inline constexpr std::string_view kRuleUnknownCuda = "TR008";       // CUDA-looking name with no mapping
inline constexpr std::string_view kRuleEditConflict = "TR009";      // two edits disagree on the same bytes
inline constexpr std::string_view kRuleLaunchNotRewritten = "TR010";
inline constexpr std::string_view kRuleArgumentDropped = "TR011";  // HIP has no such argument
inline constexpr std::string_view kRuleHalf2Member = "TR012";      // half2 .x/.y read as half
inline constexpr std::string_view kRuleCompatShim = "TR013";       // code HIP lacks, written inline (compat_shims.h)
inline constexpr std::string_view kRuleCudaVersionCondition = "TR014";  // #if on CUDA_VERSION/CUDART_VERSION

struct NameDecision {
  const ApiMapping* mapping = nullptr;
  bool replace = false;
  std::string_view name;  // what to write when replace
  // When !replace (or for a note): the rule and message of the finding to report; empty rule = silent.
  std::string_view rule;
  Severity severity = Severity::kWarning;
  std::string message;
};

class NameResolver {
 public:
  NameResolver(const MappingIndex& index, const TranslateOptions& options) : index_(index), options_(options) {}

  // nullptr when the name is not in any table.
  const ApiMapping* Find(std::string_view cuda_name) const;
  // `blas_v2_included`: whether cublas_v2.h was included before this use (legacy cuBLAS names need it).
  NameDecision Decide(const ApiMapping& mapping, bool blas_v2_included) const;

  const TranslateOptions& options() const { return options_; }
  const MappingIndex& index() const { return index_; }

 private:
  const MappingIndex& index_;
  const TranslateOptions& options_;
};

// The warp intrinsic without mask for HIP < 6.2 (`__shfl_down_sync` -> `__shfl_down`); empty if not one.
std::string_view MasklessWarpIntrinsic(std::string_view name);
// Warp *_sync intrinsics (with 64-bit masks) exist in HIP from this release on.
inline constexpr ApiVersion kHipWarpSyncIntroduced{6, 2};

}  // namespace hipforge::translate
