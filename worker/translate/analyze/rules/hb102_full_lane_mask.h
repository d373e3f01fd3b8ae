#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB102: a 32-bit full lane mask (0xffffffff) passed to a *_sync warp intrinsic. HIP's masks are 64-bit (HIP 6.2+
// rejects 32-bit mask types at compile time; on wave64 the value names only half the wavefront).
class FullLaneMaskRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;
};

// True for warp intrinsics that take a lane mask first (__shfl_*_sync, __ballot_sync, __syncwarp, ...).
bool IsMaskedWarpIntrinsic(std::string_view name);

}  // namespace hipforge::translate::analyze
