#include "worker/translate/analyze/rules/hb103_ballot_width.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

bool IsBallotName(llvm::StringRef name) {
  return name == "__ballot_sync" || name == "__ballot" || name == "__activemask";
}

bool ContainsBallot(const clang::Stmt* stmt) {
  if (!stmt) return false;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    if (IsBallotName(CalleeName(call))) return true;
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (ContainsBallot(child)) return true;
  }
  return false;
}

// A ballot result, directly or through a variable initialized from one, anywhere in the expression
// (`__popc(mask & lanemask_lt)` counts the ballot too).
bool HoldsBallot(const clang::Stmt* stmt) {
  if (!stmt) return false;
  if (ContainsBallot(stmt)) return true;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) return var->getInit() && ContainsBallot(var->getInit());
    return false;
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (HoldsBallot(child)) return true;
  }
  return false;
}

constexpr const char* kMessage32 =
    "ballot/activemask result kept in 32 bits: HIP's lane masks are 64-bit and wave64 (MI250/MI300) sets the upper "
    "32 bits";

}  // namespace

const RuleInfo& BallotWidthRule::info() const {
  static const RuleInfo kInfo{"HB103", Severity::kWarning, RuleClass::kWavefront,
                              "Ballot/activemask results kept in 32 bits or counted with __popc/__ffs"};
  return kInfo;
}

void BallotWidthRule::registerMatchers(MatchFinder* finder) {
  finder->addMatcher(
      varDecl(hasInitializer(ignoringParenImpCasts(callExpr(callee(functionDecl(
                  hasAnyName("__ballot_sync", "__ballot", "__activemask")))))))
          .bind("var"),
      this);
  finder->addMatcher(
      binaryOperator(isAssignmentOperator(), hasRHS(ignoringParenImpCasts(callExpr(callee(functionDecl(
                                                 hasAnyName("__ballot_sync", "__ballot", "__activemask")))))))
          .bind("assign"),
      this);
  finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("__popc", "__ffs", "__clz", "__brev"))), argumentCountIs(1)).bind("count"),
      this);
}

void BallotWidthRule::check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const clang::SourceManager& sm = *result.SourceManager;
  const clang::LangOptions& lang = context.getLangOpts();
  if (const auto* var = result.Nodes.getNodeAs<clang::VarDecl>("var")) {
    if (var->getType()->isDependentType() || context.getTypeSize(var->getType()) > 32) return;
    if (var->getType()->getContainedAutoType()) return;  // `auto` follows HIP's 64-bit return type
    std::vector<EditSpec> edits;
    const clang::TypeLoc type_loc = var->getTypeSourceInfo() ? var->getTypeSourceInfo()->getTypeLoc() : clang::TypeLoc();
    const clang::SourceRange range = type_loc.getSourceRange();
    const auto begin = FileOffset(sm, range.getBegin());
    const auto end = TokenEndOffset(sm, lang, range.getEnd());
    if (begin && end && type_loc.getType()->isIntegerType() && !var->getType().isVolatileQualified()) {
      const std::string qualifiers = var->getType().isConstQualified() ? "const " : "";
      std::string written(sm.getCharacterData(range.getBegin()), *end - *begin);
      if (written.find("const") != std::string::npos) edits.push_back({*begin, *end - *begin, qualifiers + "unsigned long long"});
      else edits.push_back({*begin, *end - *begin, "unsigned long long"});
    }
    Report(sm, var->getTypeSpecStartLoc(), MacroPlacement::kUse, kMessage32,
           edits.empty() ? "Declare the variable as unsigned long long (uint64_t)."
                         : "Widen the variable to unsigned long long.",
           std::move(edits));
    return;
  }
  if (const auto* assign = result.Nodes.getNodeAs<clang::BinaryOperator>("assign")) {
    const clang::QualType type = assign->getLHS()->getType();
    if (type->isDependentType() || context.getTypeSize(type) > 32) return;
    Report(sm, assign->getLHS()->getBeginLoc(), MacroPlacement::kUse, kMessage32,
           "Declare the destination as unsigned long long (uint64_t).");
    return;
  }
  const auto* count = result.Nodes.getNodeAs<clang::CallExpr>("count");
  if (!count || !HoldsBallot(count->getArg(0))) return;
  const std::string name = CalleeName(count);
  const clang::SourceLocation name_loc = count->getCallee()->IgnoreImpCasts()->getBeginLoc();
  std::vector<EditSpec> edits;
  std::string fix;
  if ((name == "__popc" || name == "__ffs") && !name_loc.isMacroID()) {
    edits.push_back({sm.getFileOffset(name_loc), static_cast<uint32_t>(name.size()), name + "ll"});
    // HIP overloads __ffsll for long long and unsigned long long: a narrower argument (the mask kept in a
    // uint32_t) would be ambiguous there (HeCBench btree-cuda), so it is converted to the mask type.
    // __popcll has one overload and needs no cast; a ballot call itself returns 64 bits in HIP.
    const clang::Expr* argument = count->getArg(0)->IgnoreImpCasts();
    const auto* direct = llvm::dyn_cast<clang::CallExpr>(argument);
    if (name == "__ffs" && !(direct && IsBallotName(CalleeName(direct))) && !argument->getType()->isDependentType() &&
        context.getTypeSize(argument->getType()) < 64) {
      // A macro inside the argument (`~bits & KEY_PIVOT_MASK_R`, btree-cuda) is covered by its expansion range.
      const auto begin = FileOffset(sm, sm.getExpansionLoc(argument->getBeginLoc()));
      const auto end = TokenEndOffset(sm, lang, sm.getExpansionRange(argument->getEndLoc()).getEnd());
      if (begin && end && *begin < *end) {
        edits.push_back({*begin, 0, "static_cast<unsigned long long>("});
        edits.push_back({*end, 0, ")"});
      }
    }
    fix = "Use " + name + "ll on the 64-bit mask.";
  } else {
    fix = "Use the 64-bit " + name + "ll and adjust bit positions for 64 lanes (e.g. 63 - __clzll(mask)).";
  }
  Report(sm, name_loc, MacroPlacement::kUse,
         name + " on a ballot/activemask result counts only 32 lanes; wave64 masks are 64-bit", std::move(fix),
         std::move(edits));
}

// Token version: `__popc(__ballot_sync(` / `__ffs(__activemask(` written out.
void BallotWidthRule::checkTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    const std::string_view name = tokens[i].text;
    if (name != "__popc" && name != "__ffs" && name != "__clz" && name != "__brev") continue;
    if (tokens[i + 1].text != "(" || !file.InFallbackRange(tokens[i].offset)) continue;
    const std::string_view argument = tokens[i + 2].text;
    if (argument != "__ballot_sync" && argument != "__ballot" && argument != "__activemask") continue;
    std::vector<EditSpec> edits;
    if (name == "__popc" || name == "__ffs") {
      edits.push_back({tokens[i].offset, static_cast<uint32_t>(name.size()), std::string(name) + "ll"});
    }
    Report(file, tokens[i].offset,
           std::string(name) + " on a ballot/activemask result counts only 32 lanes; wave64 masks are 64-bit",
           "Use the 64-bit " + std::string(name) + "ll.", std::move(edits));
  }
}

}  // namespace hipforge::translate::analyze
