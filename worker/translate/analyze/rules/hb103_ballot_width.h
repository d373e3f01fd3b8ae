#pragma once
#include <set>

#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB103: ballot/activemask results kept in 32 bits or counted with __popc/__ffs/__clz/__brev. On wave64 the
// upper 32 lanes are lost.
class BallotWidthRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;
  // A unit can be parsed more than once (host and device): what is kept per AST starts empty for each.
  void onStartOfTranslationUnit() override {
    widened_.clear();
    lane_masks_.Clear();
  }

 private:
  void CheckLaneBit(const clang::BinaryOperator& shift, clang::ASTContext& context);
  std::set<const clang::VarDecl*> widened_;  // locals whose declaration an assignment already widened
  LaneMaskLocals lane_masks_;                // one pass per function, not one per use
};

}  // namespace hipforge::translate::analyze
