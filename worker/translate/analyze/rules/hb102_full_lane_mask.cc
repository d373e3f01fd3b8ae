#include "worker/translate/analyze/rules/hb102_full_lane_mask.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

constexpr const char* kMessage =
    "32-bit full lane mask in a *_sync warp intrinsic: HIP lane masks are 64-bit (wave64 on MI250/MI300); HIP 6.2+ "
    "rejects 32-bit mask types";
constexpr const char* kReplacement = "0xffffffffffffffffull";

bool IsFullMask32(unsigned long long value) { return value == 0xffffffffull; }

constexpr const char* kPartialMessage =
    "32-bit partial lane mask in a *_sync warp intrinsic: on a 64-wide wavefront (MI250/MI300) it can only name "
    "lanes 0-31, so lanes 32-63 never join their group, and HIP 6.2+ rejects 32-bit mask types";
constexpr const char* kPartialFix =
    "Recompute the lane groups for 64 lanes with a 64-bit mask (e.g. `0xffffull << (lane & ~15)` on an unsigned "
    "long long, or cooperative_groups::tiled_partition<16>); widening the literal alone still leaves lanes 32-63 "
    "out.";

bool ContainsCall(const clang::Stmt* stmt) {
  if (!stmt) return false;
  if (llvm::isa<clang::CallExpr>(stmt)) return true;
  for (const clang::Stmt* child : stmt->children()) {
    if (ContainsCall(child)) return true;
  }
  return false;
}

// A lane mask computed from constants: `(1u << n) - 1`, `0xffffffffu >> (32 - n)`, `lane < 16 ? 0xffff : ...`.
bool IsComputedFromConstants(const clang::Expr* expr, const clang::ASTContext& context, int depth = 0) {
  if (!expr || depth > 4) return false;
  expr = StripCasts(expr);
  if (const auto* conditional = llvm::dyn_cast<clang::ConditionalOperator>(expr)) {
    return ConstantValue(conditional->getTrueExpr(), context) && ConstantValue(conditional->getFalseExpr(), context);
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    if ((binary->getOpcode() == clang::BO_Shl || binary->getOpcode() == clang::BO_Shr) &&
        ConstantValue(binary->getLHS(), context)) {
      return true;
    }
    return IsComputedFromConstants(binary->getLHS(), context, depth + 1) ||
           IsComputedFromConstants(binary->getRHS(), context, depth + 1);
  }
  return false;
}

// The expression a mask argument stands for: itself, or the initializer of the local variable it names.
const clang::Expr* MaskDefinition(const clang::Expr* mask) {
  const clang::Expr* stripped = StripCasts(mask);
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stripped)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
      if (var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var)) return var->getInit();
    }
    return nullptr;
  }
  return stripped;
}

}  // namespace

bool IsMaskedWarpIntrinsic(std::string_view name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsic(name);
  return intrinsic != nullptr && intrinsic->lane_mask;
}

const RuleInfo& FullLaneMaskRule::info() const {
  static const RuleInfo kInfo{kRuleFullLaneMask, Severity::kError, RuleClass::kWavefront,
                              "32-bit lane masks (full 0xffffffff or partial) in *_sync warp intrinsics"};
  return kInfo;
}

void FullLaneMaskRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(callExpr(hasArgument(0, expr().bind("mask"))).bind("call"), this);
}

void FullLaneMaskRule::Check(const MatchFinder::MatchResult& result) {
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  const auto* mask = result.Nodes.getNodeAs<clang::Expr>("mask");
  if (!IsMaskedWarpIntrinsic(CalleeName(call))) return;
  clang::ASTContext& context = *result.Context;
  const clang::SourceManager& sm = *result.SourceManager;
  // The value as written, before CUDA's conversion to its 32-bit `unsigned` parameter (which would make a
  // correct 64-bit mask look like 0xffffffff).
  const clang::Expr* written = mask->IgnoreParenImpCasts();
  if (written->isTypeDependent() || !written->getType()->isIntegerType()) return;
  const bool narrow = context.getTypeSize(written->getType()) <= 32;
  const auto value = ConstantValue(written, context);
  if (!value) {
    // A 32-bit mask computed from constants (`(1u << width) - 1`); masks from ballots are HB103's.
    const clang::Expr* definition = MaskDefinition(mask);
    if (narrow && definition && !ContainsCall(definition) && IsComputedFromConstants(definition, context)) {
      Report(sm, mask->getBeginLoc(), MacroPlacement::kUse, kPartialMessage, kPartialFix);
    }
    return;
  }
  const bool all_ones_int = *value == -1 && context.getTypeSize(written->getType()) == 32;
  if (!IsFullMask32(static_cast<unsigned long long>(*value)) && !all_ones_int) {
    // A partial mask constant of 32-bit type (`0x0000ffff`, `0xffff0000`); 64-bit ones (`0xffffull`) are
    // deliberate. Zero names no lanes at all.
    if (narrow && *value != 0) Report(sm, mask->getBeginLoc(), MacroPlacement::kUse, kPartialMessage, kPartialFix);
    return;
  }
  // The argument as the call has it: the matcher's `mask` is stripped, a substituted template argument included.
  const clang::IntegerLiteral* literal = FindIntegerLiteral(call->getArg(0), 0xffffffffll);
  if (!literal) {
    // A named 32-bit mask variable: point at the use, widen by hand.
    Report(sm, mask->getBeginLoc(), MacroPlacement::kUse, kMessage,
           "Declare the mask as a 64-bit value (unsigned long long / uint64_t) initialized with "
           "0xffffffffffffffffull, or use __activemask().");
    return;
  }
  const std::string macro = MacroNameAt(sm, context.getLangOpts(), literal->getBeginLoc());
  const clang::SourceLocation placed = PlacedLocation(sm, literal->getBeginLoc(), MacroPlacement::kSpelling);
  std::vector<EditSpec> edits;
  // The literal is fixed where it is spelled: in the call, or in a mask macro's definition.
  if (!placed.isMacroID() && (macro.empty() || llvm::StringRef(macro).contains_insensitive("mask") ||
                              llvm::StringRef(macro).contains_insensitive("full"))) {
    const unsigned begin = sm.getFileOffset(placed);
    const auto end = TokenEndOffset(sm, context.getLangOpts(), placed);
    if (end) edits.push_back({begin, *end - begin, kReplacement});
  }
  std::string fix = edits.empty() ? "Use a 64-bit full mask (0xffffffffffffffffull) or __activemask()."
                                  : "Replace 0xffffffff with 0xffffffffffffffffull (HIP < 6.2 drops the mask).";
  Report(sm, literal->getBeginLoc(), MacroPlacement::kSpelling, kMessage, std::move(fix), std::move(edits));
}

void FullLaneMaskRule::CheckTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier || !IsMaskedWarpIntrinsic(tokens[i].text)) continue;
    if (tokens[i + 1].text != "(" || !file.InFallbackRange(tokens[i].offset)) continue;
    const Token& argument = tokens[i + 2];
    unsigned long long value = 0;
    if (argument.kind != TokenKind::kNumber || !ParseIntegerLiteral(argument.text, &value)) continue;
    if (i + 3 < tokens.size() && tokens[i + 3].text != "," && tokens[i + 3].text != ")") continue;
    if (!IsFullMask32(value)) {
      const bool long_long =
          argument.text.find("ll") != std::string_view::npos || argument.text.find("LL") != std::string_view::npos;
      if (value != 0 && value < 0xffffffffull && !long_long)
        Report(file, argument.offset, kPartialMessage, kPartialFix);
      continue;
    }
    Report(file, argument.offset, kMessage, "Replace 0xffffffff with 0xffffffffffffffffull (HIP < 6.2 drops the mask).",
           {EditSpec{argument.offset, static_cast<uint32_t>(argument.text.size()), kReplacement}});
  }
}

}  // namespace hipforge::translate::analyze
