#include "worker/translate/analyze/rules/hb101_warp_size_literal.h"

#include <cctype>

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/frontend/parent_index.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate::analyze {

bool MentionsWarpSize(const clang::Expr* expr);  // ast_helpers.cc

namespace {

using namespace clang::ast_matchers;

std::string Lower(llvm::StringRef text) { return text.lower(); }

// A warp primitive whose calls make `threadIdx.x % 32` lane arithmetic in a file (the token version): a shuffle,
// a ballot, __activemask or __syncwarp, in CUDA's or the maskless spelling (worker/translate/tables/warp_intrinsics.h).
bool IsLanePrimitive(std::string_view name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsicSpelling(name);
  if (!intrinsic) return false;
  const WarpOp op = intrinsic->op;
  return IsShuffle(op) || op == WarpOp::kBallot || op == WarpOp::kActiveMask || op == WarpOp::kSyncWarp;
}

bool IsWarpName(llvm::StringRef name) {
  const std::string lower = Lower(name);
  return lower.find("lane") != std::string::npos || lower.find("warp") != std::string::npos || lower == "wid" ||
         lower.rfind("wid_", 0) == 0 || lower == "wtid" || lower == "warpid";
}

// The variable the value of `expr` is stored into (initializer or plain assignment), if any.
const clang::NamedDecl* Destination(clang::ASTContext& context, const clang::Expr& expr) {
  clang::DynTypedNodeList parents = ParentsOf(context, expr);
  for (int guard = 0; guard < 8 && !parents.empty(); ++guard) {
    const clang::DynTypedNode& parent = parents[0];
    if (const auto* var = parent.get<clang::VarDecl>()) return var;
    if (const auto* op = parent.get<clang::BinaryOperator>()) {
      if (op->isAssignmentOp()) return NamedStorage(op->getLHS());
      return nullptr;
    }
    if (!parent.get<clang::ImplicitCastExpr>() && !parent.get<clang::ParenExpr>() &&
        !parent.get<clang::CStyleCastExpr>() && !parent.get<clang::CXXStaticCastExpr>() &&
        !parent.get<clang::CXXFunctionalCastExpr>()) {
      return nullptr;
    }
    parents = ParentsOf(context, parent);
  }
  return nullptr;
}

// A lane computed with a literal 32 (`% 32`, `& 31` of the thread index) that indexes an array dimension of 32
// (`tile[warp][lane]` with `tile[..][32]`): the function's 32s are rows of 32 by design. Widening the lane alone makes
// lanes 32-63 write past the row; consistent 32s are right on a 64-wide wavefront too (two rows per wave).
class LaneIndexesRowOf32 : public clang::RecursiveASTVisitor<LaneIndexesRowOf32> {
 public:
  explicit LaneIndexesRowOf32(clang::ASTContext& context) : context_(context) {}
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* subscript) {
    // A row of a 2-D array (`tile[warp][lane]`); a 1-D `partial[32]` read by lane holds one slot per warp.
    const clang::Expr* base = subscript->getBase()->IgnoreImpCasts();
    const auto* array = context_.getAsConstantArrayType(base->getType());
    if (!array || array->getSize() != 32 || !llvm::isa<clang::ArraySubscriptExpr>(base->IgnoreParens())) return true;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(StripCasts(subscript->getIdx()));
    const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !var->getInit()) return true;
    const auto* op = llvm::dyn_cast<clang::BinaryOperator>(StripCasts(var->getInit()));
    if (!op || !IsLaneExpression(*op, context_, /*or_warp_size=*/false)) return true;
    lane = var->getName().str();
    return false;
  }
  std::string lane;

 private:
  clang::ASTContext& context_;
};

std::string LaneOfRowOf32(const clang::FunctionDecl* function, clang::ASTContext& context) {
  if (!function || !function->hasBody()) return {};
  LaneIndexesRowOf32 finder(context);
  finder.TraverseStmt(function->getBody());
  return finder.lane;
}

// Why a function's 32s are not the warp width (they stay as written), or {} when nothing says so.
struct KeepReason {
  std::string message;  // appended to the finding's message
  std::string fix;
};

KeepReason ThirtyTwosByDesign(const clang::FunctionDecl* function, clang::ASTContext& context) {
  if (const std::string row_lane = LaneOfRowOf32(function, context); !row_lane.empty()) {
    return {"; `" + row_lane + "` indexes a 32-wide array dimension, so this function's 32s are rows of 32",
            "Left as written: widening the lane alone makes lanes 32-63 index past the 32-wide row. Keep every 32 of "
            "the function (two rows per 64-wide wavefront), or widen the array, the lane and the warp index together."};
  }
  if (ShufflesInSegmentsOf32(function, context)) {
    return {std::string(kSegmentsOf32Reason) + ", so its 32s are segments of 32", kSegmentsOf32Fix};
  }
  if (BallotStoredIn32Bits(function, context)) {
    return {"; this function stores a ballot as 32-bit words, so its 32s are word sizes",
            "Left as written: the 32s index 32-bit words of the ballot. Store each 32-lane half's own word (HB103 "
            "says how) and keep them."};
  }
  return {};
}

// A lane id: `x % 32`, `x % warpSize`, `x & 31`, `x & (warpSize - 1)` of the thread index, or __lane_id(), directly
// or through the variable initialized with it.
bool IsLaneId(const clang::Expr* expr, const clang::ASTContext& context) {
  expr = StripCasts(expr);
  if (const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(expr)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var || !var->getInit()) return false;
    expr = StripCasts(var->getInit());
  }
  if (const auto* call = llvm::dyn_cast_or_null<clang::CallExpr>(expr)) return CalleeName(call) == "__lane_id";
  const auto* op = llvm::dyn_cast_or_null<clang::BinaryOperator>(expr);
  return op && IsLaneExpression(*op, context, /*or_warp_size=*/true);
}

}  // namespace

const RuleInfo& WarpSizeLiteralRule::info() const {
  static const RuleInfo kInfo{kRuleWarpSizeLiteral, Severity::kWarning, RuleClass::kWavefront,
                              "Literal warp size (32) in lane/warp arithmetic"};
  return kInfo;
}

void WarpSizeLiteralRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(binaryOperator(hasAnyOperatorName("%", "/", "&", ">>", "%=", "/=", "&=", ">>=")).bind("op"), this);
  finder.addMatcher(binaryOperator(hasAnyOperatorName("==", "!=")).bind("last"), this);
}

// One literal of the function: left as written where its 32s are sizes of something else by design, else replaced
// by `edit.replacement` where it is written in device code (`literal` a file location), else only reported.
void WarpSizeLiteralRule::ReportLiteral(clang::ASTContext& context, const clang::FunctionDecl* function,
                                        clang::SourceLocation literal, bool editable, std::string message,
                                        const LiteralFix& edit) {
  const clang::SourceManager& sm = context.getSourceManager();
  const KeepReason keep = ThirtyTwosByDesign(function, context);
  const auto begin = FileOffset(sm, literal);
  const auto end = TokenEndOffset(sm, context.getLangOpts(), literal);
  std::string fix = edit.fix_without;
  std::vector<EditSpec> edits;
  if (!keep.message.empty()) {
    message += keep.message;
    fix = keep.fix;
  } else if (editable && begin && end && IsDeviceFunction(function)) {
    edits.push_back({*begin, *end - *begin, edit.replacement});
    fix = edit.fix_with;
  }
  Report(sm, literal, MacroPlacement::kUse, std::move(message), std::move(fix), std::move(edits));
}

// `blockDim.x / 32.f`: the number of warps as a float (HeCBench logprob-cuda's block reduction reads that many
// per-warp partials), the same assumption with a floating literal.
void WarpSizeLiteralRule::CheckFloatDivision(const clang::BinaryOperator& op, clang::ASTContext& context) {
  const auto* literal = llvm::dyn_cast<clang::FloatingLiteral>(op.getRHS()->IgnoreParenImpCasts());
  if (op.getOpcode() != clang::BO_Div || !literal || literal->getValueAsApproximateDouble() != 32.0) return;
  if (!DerivesFromThreadIndex(op.getLHS(), /*allow_block_dim=*/true)) return;
  const clang::FunctionDecl* function = EnclosingFunction(context, op);
  if (!UsesWarpPrimitives(function)) return;
  const bool is_float = literal->getType()->isSpecificBuiltinType(clang::BuiltinType::Float);
  ReportLiteral(context, function, literal->getBeginLoc(), /*editable=*/true,
                "lane/warp arithmetic assumes 32-wide warps (`/ 32.f`); AMD CDNA wavefronts (MI250/MI300) are 64 wide",
                {is_float ? "static_cast<float>(warpSize)" : "static_cast<double>(warpSize)",
                 "Divide by warpSize (as a floating value).", "Divide by warpSize."});
}

// `lane == 31`: the last lane of a 32-wide warp (a scan's total, a leader); a 64-wide wavefront's is 63.
void WarpSizeLiteralRule::CheckLastLane(const clang::BinaryOperator& comparison, clang::ASTContext& context) {
  const clang::Expr* lane = comparison.getLHS();
  const clang::Expr* constant = comparison.getRHS();
  if (ConstantValue(constant, context) != 31) std::swap(lane, constant);
  if (ConstantValue(constant, context) != 31 || MentionsWarpSize(constant) || !IsLaneId(lane, context)) return;
  const clang::FunctionDecl* function = EnclosingFunction(context, comparison);
  if (!UsesWarpPrimitives(function)) return;
  const clang::IntegerLiteral* literal = WrittenIntegerLiteral(constant);
  ReportLiteral(context, function, literal ? literal->getBeginLoc() : constant->getBeginLoc(), literal != nullptr,
                "the last lane written as 31 (`== 31`): a 64-wide wavefront's (MI250/MI300) last lane is 63",
                {"(warpSize - 1)", "Replace 31 with (warpSize - 1).", "Compare with warpSize - 1."});
}

void WarpSizeLiteralRule::Check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  if (const auto* comparison = result.Nodes.getNodeAs<clang::BinaryOperator>("last")) {
    CheckLastLane(*comparison, context);
    return;
  }
  const auto* op = result.Nodes.getNodeAs<clang::BinaryOperator>("op");
  const clang::SourceManager& sm = *result.SourceManager;
  if (MentionsWarpSize(op->getRHS())) return;
  const auto value = ConstantValue(op->getRHS(), context);
  if (!value) {
    CheckFloatDivision(*op, context);
    return;
  }
  const clang::BinaryOperatorKind kind = op->getOpcode();
  const bool is_mod_div =
      kind == clang::BO_Rem || kind == clang::BO_Div || kind == clang::BO_RemAssign || kind == clang::BO_DivAssign;
  const bool is_and = kind == clang::BO_And || kind == clang::BO_AndAssign;
  const bool is_shift = kind == clang::BO_Shr || kind == clang::BO_ShrAssign;
  if (!((is_mod_div && *value == 32) || (is_and && *value == 31) || (is_shift && *value == 5))) return;
  if (!DerivesFromThreadIndex(op->getLHS(), /*allow_block_dim=*/!is_and)) return;

  // Where the constant is spelled: a literal (possibly from a macro) or a named constant.
  const clang::Expr* rhs = StripCasts(op->getRHS());
  const clang::IntegerLiteral* literal = FindIntegerLiteral(op->getRHS(), *value);
  if (!literal && is_and) literal = FindIntegerLiteral(op->getRHS(), 32);  // `& (32 - 1)`
  const clang::SourceLocation spelled = literal ? literal->getBeginLoc() : rhs->getBeginLoc();
  std::string macro = MacroNameAt(sm, context.getLangOpts(), spelled);
  if (macro.empty()) macro = MacroNameAt(sm, context.getLangOpts(), rhs->getBeginLoc());
  std::string constant_name;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(rhs)) constant_name = ref->getDecl()->getName().str();

  // Warp evidence, so 32-wide tiles indexed by threadIdx stay silent.
  const clang::FunctionDecl* function = EnclosingFunction(context, *op);
  const clang::NamedDecl* destination = Destination(context, *op);
  const bool warp_named_constant = IsWarpName(macro) || IsWarpName(constant_name);
  const bool warp_named_result = destination && destination->getIdentifier() && IsWarpName(destination->getName());
  if (!warp_named_constant && !warp_named_result && !UsesWarpPrimitives(function)) return;

  const char* op_text = is_shift                                               ? ">> 5"
                        : is_and                                               ? "& 31"
                        : kind == clang::BO_Div || kind == clang::BO_DivAssign ? "/ 32"
                                                                               : "% 32";
  std::string message = std::string("lane/warp arithmetic assumes 32-wide warps (`") + op_text +
                        "`); AMD CDNA wavefronts (MI250/MI300) are 64 wide";
  if (!macro.empty()) message += " (through macro " + macro + ")";

  // Automatic fix only for a literal written right here, in device code.
  std::vector<EditSpec> edits;
  std::string fix;
  const bool device = IsDeviceFunction(function);
  // Written in this expression: a literal found through a named constant sits in that constant's initializer
  // (often constexpr: `warpSize` is not a constant in HIP), which is not the place to edit.
  const bool literal_in_file = literal && !literal->getBeginLoc().isMacroID() && !op->getOperatorLoc().isMacroID() &&
                               !sm.isBeforeInTranslationUnit(literal->getBeginLoc(), op->getBeginLoc()) &&
                               !sm.isBeforeInTranslationUnit(op->getEndLoc(), literal->getBeginLoc());
  const KeepReason keep = ThirtyTwosByDesign(function, context);
  message += keep.message;
  if (device && literal_in_file && macro.empty() && keep.message.empty()) {
    const unsigned literal_begin = *FileOffset(sm, literal->getBeginLoc());
    const unsigned literal_end = *TokenEndOffset(sm, context.getLangOpts(), literal->getBeginLoc());
    if (is_shift) {
      const clang::SourceLocation lhs_begin = op->getLHS()->getBeginLoc();
      if (!lhs_begin.isMacroID() && kind == clang::BO_Shr) {
        const unsigned lhs_offset = *FileOffset(sm, lhs_begin);
        const auto lhs_end = TokenEndOffset(sm, context.getLangOpts(), op->getLHS()->getEndLoc());
        const unsigned operator_offset = *FileOffset(sm, op->getOperatorLoc());
        const unsigned replace_from = lhs_end && *lhs_end <= operator_offset ? *lhs_end : operator_offset;
        edits.push_back({lhs_offset, 0, "(("});
        edits.push_back({replace_from, literal_end - replace_from, ") / warpSize)"});
        fix = "Replace `x >> 5` with `((x) / warpSize)`.";
      } else if (kind == clang::BO_ShrAssign) {
        const unsigned operator_offset = *FileOffset(sm, op->getOperatorLoc());
        edits.push_back({operator_offset, literal_end - operator_offset, "/= warpSize"});
        fix = "Replace `>>= 5` with `/= warpSize`.";
      }
    } else if (literal->getValue() == 31) {
      edits.push_back({literal_begin, literal_end - literal_begin, "(warpSize - 1)"});
      fix = "Replace 31 with (warpSize - 1).";
    } else {
      edits.push_back({literal_begin, literal_end - literal_begin, "warpSize"});
      fix = "Replace 32 with warpSize.";
    }
  }
  if (edits.empty() && !keep.fix.empty()) {
    fix = keep.fix;
  } else if (edits.empty()) {
    fix = macro.empty()
              ? "Use warpSize (a run-time value on HIP) instead of the literal."
              : "Use warpSize where " + macro +
                    " is used at run time; where a compile-time constant is needed (array sizes, template "
                    "arguments) HIP 5.x/6.x offer __AMDGCN_WAVEFRONT_SIZE (deprecated in newer ROCm) - size for 64 "
                    "lanes instead.";
  }
  Report(sm, spelled, MacroPlacement::kSpelling, std::move(message), std::move(fix), std::move(edits));
}

// Token version (files that did not parse, preprocessor-skipped blocks): only `threadIdx.? % 32 | / 32 |
// & 31 | >> 5` written out, in a file that also uses warp primitives.
void WarpSizeLiteralRule::CheckTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  bool warp_primitives = false;
  for (const Token& token : tokens) {
    if (token.kind == TokenKind::kIdentifier && IsLanePrimitive(token.text)) {
      warp_primitives = true;
      break;
    }
  }
  if (!warp_primitives) return;
  for (size_t i = 0; i + 4 < tokens.size(); ++i) {
    if (tokens[i].text != "threadIdx" || tokens[i + 1].text != "." || !file.InFallbackRange(tokens[i].offset)) continue;
    const std::string_view op = tokens[i + 3].text;
    unsigned long long value = 0;
    if (tokens[i + 4].kind != TokenKind::kNumber || !ParseIntegerLiteral(tokens[i + 4].text, &value)) continue;
    if (i + 5 < tokens.size() && (tokens[i + 5].text == "*" || tokens[i + 5].text == ".")) continue;
    const bool hit =
        ((op == "%" || op == "/") && value == 32) || (op == "&" && value == 31) || (op == ">>" && value == 5);
    if (!hit) continue;
    Report(file, tokens[i + 4].offset,
           "lane/warp arithmetic assumes 32-wide warps (`" + std::string(op) + " " + std::string(tokens[i + 4].text) +
               "`); AMD CDNA wavefronts (MI250/MI300) are 64 wide",
           "Use warpSize (a run-time value on HIP) instead of the literal.");
  }
}

}  // namespace hipforge::translate::analyze
