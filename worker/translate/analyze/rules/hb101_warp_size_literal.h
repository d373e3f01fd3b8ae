#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB101: a literal warp size in lane/warp arithmetic (`threadIdx.x % 32`, `/ 32`, `& 31`, `>> 5`, a WARP_SIZE
// macro defined as 32 used that way). Tile sizes (`blockIdx.y * 32`, `dim3 block(32, 32)`, `tile[32][33]`)
// stay silent: the left operand must come from the thread index, and there must be warp evidence (warp
// primitives in the function, a lane/warp-named result, or a WARP-named constant).
class WarpSizeLiteralRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void registerMatchers(clang::ast_matchers::MatchFinder* finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void checkTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
