#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB104: shuffle/reduction code whose offsets assume 32 lanes: `for (o = 16; o > 0; o /= 2)` and
// `for (o = 1; o < 32; o *= 2)` around __shfl*, unrolled `__shfl_down_sync(m, v, 16)` chains, and an explicit
// shuffle width of 32. Sub-warp widths (16, 8, ...) are deliberate segment sizes and stay silent.
class ShuffleOffsetsRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;

 private:
  void CheckLoop(const clang::ForStmt& loop, clang::ASTContext& context);
  void CheckCall(const clang::CallExpr& call, clang::ASTContext& context);
};

}  // namespace hipforge::translate::analyze
