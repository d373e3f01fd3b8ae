#pragma once
#include <string>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB101: a literal warp size in lane/warp arithmetic (`threadIdx.x % 32`, `/ 32`, `& 31`, `>> 5`, a WARP_SIZE
// macro defined as 32 used that way). Tile sizes (`blockIdx.y * 32`, `dim3 block(32, 32)`, `tile[32][33]`)
// stay silent: the left operand must come from the thread index, and there must be warp evidence (warp
// primitives in the function, a lane/warp-named result, or a WARP-named constant). The last lane written as 31
// (`lane == 31`) is the same assumption. Functions whose 32s are sizes of something else by design are reported and
// left as written: rows of a 32-wide array, shuffles of width 32 (segments), ballots stored as 32-bit words.
class WarpSizeLiteralRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;

 private:
  void CheckLastLane(const clang::BinaryOperator& comparison, clang::ASTContext& context);
  void CheckFloatDivision(const clang::BinaryOperator& op, clang::ASTContext& context);
  struct LiteralFix {
    std::string replacement;  // the literal's new text
    std::string fix_with;     // the fix text when it is replaced
    std::string fix_without;  // the fix text when it is only reported
  };
  void ReportLiteral(clang::ASTContext& context, const clang::FunctionDecl* function, clang::SourceLocation literal,
                     bool editable, std::string message, const LiteralFix& edit);
};

}  // namespace hipforge::translate::analyze
