#include "worker/translate/analyze/rules/hb102_full_lane_mask.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

constexpr const char* kMessage =
    "32-bit full lane mask in a *_sync warp intrinsic: HIP lane masks are 64-bit (wave64 on MI250/MI300); HIP 6.2+ "
    "rejects 32-bit mask types";
constexpr const char* kReplacement = "0xffffffffffffffffull";

bool IsFullMask32(unsigned long long value) { return value == 0xffffffffull; }

}  // namespace

bool IsMaskedWarpIntrinsic(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "__shfl_sync",      "__shfl_up_sync",   "__shfl_down_sync", "__shfl_xor_sync",    "__ballot_sync",
      "__any_sync",       "__all_sync",       "__uni_sync",       "__match_any_sync",   "__match_all_sync",
      "__syncwarp",       "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
      "__reduce_or_sync", "__reduce_xor_sync", "__fns"};
  for (std::string_view known : kNames) {
    if (name == known) return true;
  }
  return false;
}

const RuleInfo& FullLaneMaskRule::info() const {
  static const RuleInfo kInfo{"HB102", Severity::kError, RuleClass::kWavefront,
                              "32-bit full lane mask (0xffffffff) in *_sync warp intrinsics"};
  return kInfo;
}

void FullLaneMaskRule::registerMatchers(MatchFinder* finder) {
  finder->addMatcher(callExpr(hasArgument(0, expr().bind("mask"))).bind("call"), this);
}

void FullLaneMaskRule::check(const MatchFinder::MatchResult& result) {
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  const auto* mask = result.Nodes.getNodeAs<clang::Expr>("mask");
  if (!IsMaskedWarpIntrinsic(CalleeName(call))) return;
  clang::ASTContext& context = *result.Context;
  const clang::SourceManager& sm = *result.SourceManager;
  // The value as written, before CUDA's conversion to its 32-bit `unsigned` parameter (which would make a
  // correct 64-bit mask look like 0xffffffff).
  const clang::Expr* written = mask->IgnoreParenImpCasts();
  const auto value = ConstantValue(written, context);
  if (!value) return;
  const bool all_ones_int = *value == -1 && context.getTypeSize(written->getType()) == 32;
  if (!IsFullMask32(static_cast<unsigned long long>(*value)) && !all_ones_int) return;
  const clang::Expr* stripped = StripCasts(mask);
  const clang::IntegerLiteral* literal = FindIntegerLiteral(stripped, 0xffffffffll);
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

void FullLaneMaskRule::checkTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier || !IsMaskedWarpIntrinsic(tokens[i].text)) continue;
    if (tokens[i + 1].text != "(" || !file.InFallbackRange(tokens[i].offset)) continue;
    const Token& argument = tokens[i + 2];
    unsigned long long value = 0;
    if (argument.kind != TokenKind::kNumber || !ParseIntegerLiteral(argument.text, &value) || !IsFullMask32(value)) {
      continue;
    }
    if (i + 3 < tokens.size() && tokens[i + 3].text != "," && tokens[i + 3].text != ")") continue;
    Report(file, argument.offset, kMessage,
           "Replace 0xffffffff with 0xffffffffffffffffull (HIP < 6.2 drops the mask).",
           {EditSpec{argument.offset, static_cast<uint32_t>(argument.text.size()), kReplacement}});
  }
}

}  // namespace hipforge::translate::analyze
