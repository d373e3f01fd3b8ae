#pragma once
#include <set>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB103: ballot/activemask results kept in 32 bits or counted with __popc/__ffs/__clz/__brev. On wave64 the
// upper 32 lanes are lost.
class BallotWidthRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void registerMatchers(clang::ast_matchers::MatchFinder* finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void checkTokens(const TextFile& file) override;

 private:
  void CheckLaneBit(const clang::BinaryOperator& shift, clang::ASTContext& context);
  std::set<const clang::VarDecl*> widened_;  // locals whose declaration an assignment already widened
};

}  // namespace hipforge::translate::analyze
