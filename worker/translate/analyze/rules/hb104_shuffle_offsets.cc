#include "worker/translate/analyze/rules/hb104_shuffle_offsets.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate::analyze {

bool MentionsWarpSize(const clang::Expr* expr);  // ast_helpers.cc

namespace {

using namespace clang::ast_matchers;

// The shuffles are the warp-intrinsic table's (worker/translate/tables/warp_intrinsics.h): CUDA's name, the maskless
// spelling, or the cooperative-groups tile member (`tile.shfl_down`).
bool IsShuffleName(llvm::StringRef callee) {
  const std::string_view name(callee.data(), callee.size());
  if (name.empty()) return false;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    if (IsShuffle(intrinsic.op) &&
        (name == intrinsic.name || name == intrinsic.maskless || name == intrinsic.group_member)) {
      return true;
    }
  }
  return false;
}

// A shuffle intrinsic in CUDA's or the maskless spelling (not a tile member); nullptr otherwise.
const WarpIntrinsic* ShuffleIntrinsic(std::string_view name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsicSpelling(name);
  return intrinsic && IsShuffle(intrinsic->op) ? intrinsic : nullptr;
}

// Both spellings of every shuffle intrinsic, qualified as declared (at global scope), for a name matcher.
std::vector<std::string> ShuffleFunctionNames() {
  std::vector<std::string> names;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    if (!IsShuffle(intrinsic.op)) continue;
    names.push_back("::" + std::string(intrinsic.name));
    if (!intrinsic.maskless.empty()) names.push_back("::" + std::string(intrinsic.maskless));
  }
  return names;
}

// True when the loop body shuffles with the loop variable.
class ShuffleUse : public clang::RecursiveASTVisitor<ShuffleUse> {
 public:
  explicit ShuffleUse(const clang::VarDecl* variable) : variable_(variable) {}
  bool VisitCallExpr(clang::CallExpr* call) {
    if (!IsShuffleName(CalleeName(call))) return true;
    for (const clang::Expr* argument : call->arguments()) {
      if (Mentions(argument)) {
        found = true;
        return false;
      }
    }
    return true;
  }
  bool found = false;

 private:
  bool Mentions(const clang::Stmt* stmt) const {
    if (!stmt) return false;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
      if (ref->getDecl() == variable_) return true;
    }
    for (const clang::Stmt* child : stmt->children()) {
      if (Mentions(child)) return true;
    }
    return false;
  }
  const clang::VarDecl* variable_;
};

const clang::VarDecl* VariableOf(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(StripCasts(expr));
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

enum class Direction { kNone, kHalving, kDoubling };

Direction StepOf(const clang::Expr* increment, const clang::VarDecl* variable, const clang::ASTContext& context) {
  const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(increment ? increment->IgnoreParens() : nullptr);
  if (!op || VariableOf(op->getLHS()) != variable) return Direction::kNone;
  const auto rhs = ConstantValue(op->getRHS(), context);
  switch (op->getOpcode()) {
    case clang::BO_DivAssign: return rhs == 2 ? Direction::kHalving : Direction::kNone;
    case clang::BO_ShrAssign: return rhs == 1 ? Direction::kHalving : Direction::kNone;
    case clang::BO_MulAssign: return rhs == 2 ? Direction::kDoubling : Direction::kNone;
    case clang::BO_ShlAssign: return rhs == 1 ? Direction::kDoubling : Direction::kNone;
    case clang::BO_Assign: {
      const auto* inner = llvm::dyn_cast<clang::BinaryOperator>(StripCasts(op->getRHS()));
      if (!inner || VariableOf(inner->getLHS()) != variable) return Direction::kNone;
      const auto by = ConstantValue(inner->getRHS(), context);
      if ((inner->getOpcode() == clang::BO_Div && by == 2) || (inner->getOpcode() == clang::BO_Shr && by == 1)) {
        return Direction::kHalving;
      }
      if ((inner->getOpcode() == clang::BO_Mul && by == 2) || (inner->getOpcode() == clang::BO_Shl && by == 1)) {
        return Direction::kDoubling;
      }
      return Direction::kNone;
    }
    default: return Direction::kNone;
  }
}

constexpr const char* kLoopMessage =
    "shuffle loop offsets assume 32 lanes; a 64-wide wavefront (MI250/MI300) needs offsets up to 32";

}  // namespace

const RuleInfo& ShuffleOffsetsRule::info() const {
  static const RuleInfo kInfo{kRuleShuffleOffsets, Severity::kWarning, RuleClass::kWavefront,
                              "Shuffle/reduction offsets or widths that assume 32 lanes"};
  return kInfo;
}

void ShuffleOffsetsRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(forStmt().bind("loop"), this);
  static const std::vector<std::string> kShuffles = ShuffleFunctionNames();
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName(std::vector<llvm::StringRef>(kShuffles.begin(), kShuffles.end())))))
          .bind("call"),
      this);
}

void ShuffleOffsetsRule::Check(const MatchFinder::MatchResult& result) {
  if (const auto* loop = result.Nodes.getNodeAs<clang::ForStmt>("loop")) CheckLoop(*loop, *result.Context);
  if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call")) CheckCall(*call, *result.Context);
}

void ShuffleOffsetsRule::CheckLoop(const clang::ForStmt& loop, clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  // The loop variable and its start value.
  const clang::VarDecl* variable = nullptr;
  const clang::Expr* start = nullptr;
  if (const auto* decl_stmt = llvm::dyn_cast_or_null<clang::DeclStmt>(loop.getInit())) {
    if (decl_stmt->isSingleDecl()) {
      variable = llvm::dyn_cast<clang::VarDecl>(decl_stmt->getSingleDecl());
      if (variable) start = variable->getInit();
    }
  } else if (const auto* assign = llvm::dyn_cast_or_null<clang::BinaryOperator>(loop.getInit())) {
    if (assign->getOpcode() == clang::BO_Assign) {
      variable = VariableOf(assign->getLHS());
      start = assign->getRHS();
    }
  }
  if (!variable || !start || !loop.getCond() || MentionsWarpSize(start)) return;
  const Direction direction = StepOf(loop.getInc(), variable, context);
  if (direction == Direction::kNone) return;
  const auto start_value = ConstantValue(start, context);
  const auto* condition = llvm::dyn_cast<clang::BinaryOperator>(loop.getCond()->IgnoreParenImpCasts());
  if (!start_value || !condition) return;
  ShuffleUse use(variable);
  use.TraverseStmt(const_cast<clang::Stmt*>(loop.getBody()));
  if (!use.found) return;
  const clang::FunctionDecl* function = EnclosingFunction(context, loop);
  const bool segments = ShufflesInSegmentsOf32(function, context);
  const bool device = IsDeviceFunction(function) && !segments;
  const clang::LangOptions& lang = context.getLangOpts();
  const std::string message = std::string(kLoopMessage) + (segments ? kSegmentsOf32Reason : "");

  if (direction == Direction::kHalving && *start_value == 16) {
    std::vector<EditSpec> edits;
    const clang::Expr* stripped = StripCasts(start);
    const auto begin = FileOffset(sm, stripped->getBeginLoc());
    const auto end = TokenEndOffset(sm, lang, stripped->getEndLoc());
    if (device && begin && end && WrittenIntegerLiteral(start)) {
      edits.push_back({*begin, *end - *begin, "warpSize / 2"});
    }
    Report(sm, start->getBeginLoc(), MacroPlacement::kUse, message,
           segments        ? kSegmentsOf32Fix
           : edits.empty() ? "Start the loop at warpSize / 2."
                           : "Start the loop at warpSize / 2 (was 16).",
           std::move(edits));
    return;
  }
  if (direction == Direction::kDoubling && *start_value == 1) {
    const auto bound = ConstantValue(condition->getRHS(), context);
    if (VariableOf(condition->getLHS()) != variable || !bound || MentionsWarpSize(condition->getRHS())) return;
    const bool assumes_32 = (condition->getOpcode() == clang::BO_LT && *bound == 32) ||
                            (condition->getOpcode() == clang::BO_LE && (*bound == 16 || *bound == 31));
    if (!assumes_32) return;
    std::vector<EditSpec> edits;
    const clang::Expr* stripped = StripCasts(condition->getRHS());
    const auto begin = FileOffset(sm, stripped->getBeginLoc());
    const auto end = TokenEndOffset(sm, lang, stripped->getEndLoc());
    if (device && begin && end && WrittenIntegerLiteral(condition->getRHS())) {
      const std::string replacement = condition->getOpcode() == clang::BO_LT ? "warpSize"
                                      : *bound == 16                         ? "warpSize / 2"
                                                                             : "warpSize - 1";
      edits.push_back({*begin, *end - *begin, replacement});
    }
    Report(sm, condition->getRHS()->getBeginLoc(), MacroPlacement::kUse, message,
           segments ? kSegmentsOf32Fix : "Bound the loop by warpSize.", std::move(edits));
  }
}

void ShuffleOffsetsRule::CheckCall(const clang::CallExpr& call, clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  const std::string name = CalleeName(&call);
  const WarpIntrinsic* shuffle = ShuffleIntrinsic(name);
  const bool masked = shuffle && name == shuffle->name;  // CUDA's spelling, with the lane mask first
  const unsigned value_index = masked ? 1 : 0;
  const unsigned offset_index = value_index + 1;
  const unsigned width_index = value_index + 2;
  // An explicit width of 32: the whole CUDA warp, which is half an AMD wavefront. Default arguments
  // (the CUDA header's own `width = warpSize`) are not written by the user.
  if (call.getNumArgs() > width_index && !llvm::isa<clang::CXXDefaultArgExpr>(call.getArg(width_index))) {
    const clang::Expr* width = call.getArg(width_index);
    if (ConstantValue(width, context) == 32 && !MentionsWarpSize(width)) {
      const bool segments = ShufflesInSegmentsOf32(EnclosingFunction(context, call), context);
      std::vector<EditSpec> edits;
      const clang::Expr* stripped = StripCasts(width);
      const auto begin = FileOffset(sm, stripped->getBeginLoc());
      const auto end = TokenEndOffset(sm, context.getLangOpts(), stripped->getEndLoc());
      if (begin && end && WrittenIntegerLiteral(width) && !segments) {
        edits.push_back({*begin, *end - *begin, "warpSize"});
      }
      Report(
          sm, width->getBeginLoc(), MacroPlacement::kUse,
          name + " with width 32 shuffles within half of a 64-wide wavefront" + (segments ? kSegmentsOf32Reason : ""),
          segments ? kSegmentsOf32Fix : "Use warpSize as the width (or omit it).", std::move(edits));
    }
  }
  // Unrolled trees start with offset 16 (down/xor) in a function that shuffles by constants.
  if (shuffle && (shuffle->op == WarpOp::kShuffleDown || shuffle->op == WarpOp::kShuffleXor) &&
      call.getNumArgs() > offset_index) {
    const clang::Expr* offset = call.getArg(offset_index);
    const clang::Expr* stripped = StripCasts(offset);
    if (ConstantValue(offset, context) == 16 && !llvm::isa<clang::DeclRefExpr>(stripped) && !MentionsWarpSize(offset)) {
      Report(sm, offset->getBeginLoc(), MacroPlacement::kUse,
             name + " with constant offset 16: the unrolled reduction covers 32 lanes, not a 64-wide wavefront",
             "Rewrite the unrolled steps as a loop `for (int o = warpSize / 2; o > 0; o /= 2)`.");
    }
  }
}

// Token version: `for (int o = 16; o > 0; o /= 2)` / `o >>= 1` written out, in a file that shuffles.
void ShuffleOffsetsRule::CheckTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  bool shuffles = false;
  for (const Token& token : tokens) shuffles |= ShuffleIntrinsic(token.text) != nullptr;
  if (!shuffles) return;
  for (size_t i = 0; i + 8 < tokens.size(); ++i) {
    if (tokens[i].text != "for" || tokens[i + 1].text != "(" || !file.InFallbackRange(tokens[i].offset)) continue;
    size_t j = i + 2;
    if (tokens[j].text == "int" || tokens[j].text == "unsigned" || tokens[j].text == "auto") ++j;
    if (j + 3 >= tokens.size() || tokens[j].kind != TokenKind::kIdentifier || tokens[j + 1].text != "=") continue;
    const std::string_view variable = tokens[j].text;
    const Token& start = tokens[j + 2];
    unsigned long long value = 0;
    if (start.kind != TokenKind::kNumber || !ParseIntegerLiteral(start.text, &value) || value != 16) continue;
    const size_t close = MatchingParen(tokens, i + 1);
    bool halving = false;
    for (size_t k = j + 3; k + 1 < close; ++k) {
      if (tokens[k].text == variable && ((tokens[k + 1].text == "/=" && k + 2 < close && tokens[k + 2].text == "2") ||
                                         (tokens[k + 1].text == ">>=" && k + 2 < close && tokens[k + 2].text == "1"))) {
        halving = true;
      }
    }
    if (!halving) continue;
    Report(file, start.offset, kLoopMessage, "Start the loop at warpSize / 2 (was 16).",
           {EditSpec{start.offset, static_cast<uint32_t>(start.text.size()), "warpSize / 2"}});
  }
}

}  // namespace hipforge::translate::analyze
