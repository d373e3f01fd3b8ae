#include "worker/translate/core/name_resolver.h"

#include <array>
#include <utility>

#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate {
namespace {

std::string VersionText(ApiVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

}  // namespace

const ApiMapping* NameResolver::Find(std::string_view cuda_name) const { return index_.Find(cuda_name); }

NameDecision NameResolver::Decide(const ApiMapping& mapping, bool blas_v2_included) const {
  NameDecision decision;
  decision.mapping = &mapping;
  const ResolvedName resolved =
      Resolve(mapping, options_.roc, options_.miopen, options_.target_hip_version, options_.use_hip_data_types);
  const std::string target_family = resolved.from_roc ? "ROC" : "HIP";
  const std::string quoted = "'" + std::string(mapping.cuda_name) + "'";
  if (resolved.state == SupportState::kExperimental && !options_.experimental) {
    decision.rule = kRuleExperimental;
    decision.message =
        quoted + " is experimental in '" + target_family + "'; to translate it, use the '--experimental' option.";
    return decision;
  }
  if (HasFlag(mapping, MappingFlag::kBlasV2Only) && !blas_v2_included) {
    decision.rule = kRuleBlasV2Only;
    decision.message = "Only '" + std::string(mapping.cuda_name) + "_v2' version of " + quoted + " is supported in '" +
                       target_family + "'; include 'cublas_v2.h' to translate it.";
    return decision;
  }
  if (resolved.state == SupportState::kUnsupported || resolved.name.empty()) {
    decision.rule = kRuleUnsupported;
    decision.message = quoted + " is unsupported in '" + target_family + "'.";
    return decision;
  }
  // The version gate applies to the HIP names; ROC library versions are tracked separately by the tables.
  const ApiVersion introduced = resolved.from_roc ? mapping.roc_introduced : mapping.hip_introduced;
  if (introduced.IsSet() && options_.target_hip_version < introduced) {
    decision.rule = kRuleNotInTargetHip;
    decision.message = quoted + " -> '" + std::string(resolved.name) + "' needs " + target_family + " " +
                       VersionText(introduced) + "; the target is " + VersionText(options_.target_hip_version) + ".";
    return decision;
  }
  if (!resolved.from_roc && mapping.hip_removed.IsSet() && !(options_.target_hip_version < mapping.hip_removed)) {
    decision.rule = kRuleNotInTargetHip;
    decision.message = quoted + " -> '" + std::string(resolved.name) + "' was removed in HIP " +
                       VersionText(mapping.hip_removed) + "; the target is " +
                       VersionText(options_.target_hip_version) + ".";
    return decision;
  }
  decision.replace = true;
  decision.name = resolved.name;
  if (mapping.cuda_deprecated.IsSet() || mapping.hip_state == SupportState::kDeprecated) {
    decision.rule = kRuleDeprecatedInCuda;
    decision.severity = Severity::kNote;
    decision.message = quoted + " is deprecated in CUDA.";
  }
  return decision;
}

std::string_view MasklessWarpIntrinsic(std::string_view name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsic(name);
  return intrinsic != nullptr ? intrinsic->maskless : std::string_view();
}

}  // namespace hipforge::translate
