#include "worker/translate/analyze/rules/hb103_ballot_width.h"

#include "clang/AST/TypeLoc.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/frontend/parent_index.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

// The bitwise operation (`&`, `|`, `^`, or their assignments) a `1 << n` feeds, through parentheses, casts,
// `~` and `- 1` (`votes & ((1u << lane) - 1)`), or nullptr.
const clang::BinaryOperator* MaskOperation(clang::ASTContext& context, const clang::Expr& shift) {
  const clang::Stmt* child = &shift;
  clang::DynTypedNodeList parents = ParentsOf(context, shift);
  for (int guard = 0; guard < 8 && !parents.empty(); ++guard) {
    const clang::DynTypedNode& parent = parents[0];
    if (const auto* op = parent.get<clang::BinaryOperator>()) {
      switch (op->getOpcode()) {
        case clang::BO_And:
        case clang::BO_Or:
        case clang::BO_Xor:
        case clang::BO_AndAssign:
        case clang::BO_OrAssign:
        case clang::BO_XorAssign: return op;
        case clang::BO_Sub:
        case clang::BO_Add:
          if (op->getLHS()->IgnoreParenImpCasts() != child && op->getLHS() != child) return nullptr;
          break;
        default: return nullptr;
      }
      child = op;
    } else if (const auto* unary = parent.get<clang::UnaryOperator>()) {
      if (unary->getOpcode() != clang::UO_Not) return nullptr;
      child = unary;
    } else if (const auto* expr = parent.get<clang::Expr>();
               expr && (llvm::isa<clang::ParenExpr>(expr) || llvm::isa<clang::ImplicitCastExpr>(expr) ||
                        llvm::isa<clang::CStyleCastExpr>(expr) || llvm::isa<clang::CXXStaticCastExpr>(expr))) {
      child = expr;
    } else {
      return nullptr;
    }
    parents = ParentsOf(context, *child);
  }
  return nullptr;
}

// The edit that declares `var` as unsigned long long (keeping const), or none where its type is not written plainly.
std::vector<EditSpec> WidenDeclaration(const clang::VarDecl& var, const clang::SourceManager& sm,
                                       const clang::LangOptions& lang) {
  std::vector<EditSpec> edits;
  const clang::TypeLoc type_loc = var.getTypeSourceInfo() ? var.getTypeSourceInfo()->getTypeLoc() : clang::TypeLoc();
  const clang::SourceRange range = type_loc.getSourceRange();
  const auto begin = FileOffset(sm, range.getBegin());
  const auto end = TokenEndOffset(sm, lang, range.getEnd());
  if (begin && end && type_loc.getType()->isIntegerType() && !var.getType().isVolatileQualified()) {
    const std::string qualifiers = var.getType().isConstQualified() ? "const " : "";
    std::string written(sm.getCharacterData(range.getBegin()), *end - *begin);
    if (written.find("const") != std::string::npos)
      edits.push_back({*begin, *end - *begin, qualifiers + "unsigned long long"});
    else
      edits.push_back({*begin, *end - *begin, "unsigned long long"});
  }
  return edits;
}

// Every spelling (CUDA's, maskless) of the warp intrinsics that return a lane mask: ballot, match, activemask
// (worker/translate/tables/warp_intrinsics.h).
std::vector<llvm::StringRef> LaneMaskFunctionNames() {
  std::vector<llvm::StringRef> names;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    if (!ReturnsLaneMask(intrinsic.op)) continue;
    names.emplace_back(intrinsic.name.data(), intrinsic.name.size());
    if (!intrinsic.maskless.empty()) names.emplace_back(intrinsic.maskless.data(), intrinsic.maskless.size());
  }
  return names;
}

// The token version knows a ballot or __activemask written out as the argument (match results are the AST
// version's only).
bool IsBallotOrActiveMask(std::string_view name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsicSpelling(name);
  return intrinsic && (intrinsic->op == WarpOp::kBallot || intrinsic->op == WarpOp::kActiveMask);
}

constexpr const char* kMessage32 =
    "ballot/activemask result kept in 32 bits: HIP's lane masks are 64-bit and wave64 (MI250/MI300) sets the upper "
    "32 bits";

}  // namespace

const RuleInfo& BallotWidthRule::info() const {
  static const RuleInfo kInfo{kRuleBallotWidth, Severity::kWarning, RuleClass::kWavefront,
                              "Ballot/activemask results kept in 32 bits or counted with __popc/__ffs"};
  return kInfo;
}

void BallotWidthRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(varDecl(hasInitializer(ignoringParenImpCasts(
                                callExpr(callee(functionDecl(hasAnyName(LaneMaskFunctionNames())))))))
                        .bind("var"),
                    this);
  finder.addMatcher(binaryOperator(hasOperatorName("=")).bind("assign"), this);
  finder.addMatcher(callExpr(callee(functionDecl(hasAnyName("__popc", "__ffs", "__clz", "__brev"))), argumentCountIs(1))
                        .bind("count"),
                    this);
  finder.addMatcher(
      binaryOperator(hasOperatorName("<<"), hasLHS(ignoringParenImpCasts(integerLiteral(equals(1))))).bind("shift"),
      this);
  finder.addMatcher(
      functionDecl(isDefinition(), anyOf(hasAttr(clang::attr::CUDAGlobal), hasAttr(clang::attr::CUDADevice)))
          .bind("function"),
      this);
}

void BallotWidthRule::Check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const clang::SourceManager& sm = *result.SourceManager;
  const clang::LangOptions& lang = context.getLangOpts();
  if (const auto* var = result.Nodes.getNodeAs<clang::VarDecl>("var")) {
    if (var->getType()->isDependentType() || context.getTypeSize(var->getType()) > 32) return;
    if (var->getType()->getContainedAutoType()) return;  // `auto` follows HIP's 64-bit return type
    std::vector<EditSpec> edits = WidenDeclaration(*var, sm, lang);
    Report(sm, var->getTypeSpecStartLoc(), MacroPlacement::kUse, kMessage32,
           edits.empty() ? "Declare the variable as unsigned long long (uint64_t)."
                         : "Widen the variable to unsigned long long.",
           std::move(edits));
    return;
  }
  if (const auto* shift = result.Nodes.getNodeAs<clang::BinaryOperator>("shift")) {
    CheckLaneBit(*shift, context);
    return;
  }
  if (const auto* function = result.Nodes.getNodeAs<clang::FunctionDecl>("function")) {
    const clang::BinaryOperator* store = BallotStoredIn32Bits(function, context);
    if (!store) return;
    Report(sm, store->getOperatorLoc(), MacroPlacement::kUse,
           "a ballot stored in a 32-bit word: on a 64-wide wavefront (MI250/MI300) lanes 32-63 are in the upper 32 "
           "bits, which this store drops",
           "Where each 32-lane half keeps its own word (a bitmap of 32-bit words), store "
           "`static_cast<unsigned>(mask >> (__lane_id() & 32))` and keep the 32s that index the words; otherwise "
           "widen the destination to 64 bits.");
    return;
  }
  if (const auto* assign = result.Nodes.getNodeAs<clang::BinaryOperator>("assign")) {
    // A lane mask assigned: a ballot/match call, or a variable initialized from one (`mask = my_mask`).
    const clang::Expr* value = StripCasts(assign->getRHS());
    const auto* call = llvm::dyn_cast<clang::CallExpr>(value);
    if (!(call && IsBallotName(CalleeName(call))) &&
        !(llvm::isa<clang::DeclRefExpr>(value) && HoldsBallot(value, lane_masks_)))
      return;
    const clang::QualType type = assign->getLHS()->getType();
    if (type->isDependentType() || !type->isIntegerType() || context.getTypeSize(type) > 32) return;
    // A local declared apart from its assignment (`int mask; ... mask = __match_any_sync(...)`, HeCBench
    // atomicAggregate): its declaration is widened, once.
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts());
    if (!ref) return;  // a store into memory (`words[i] = votes`): the function's store finding says what to do
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    std::vector<EditSpec> edits;
    if (var && var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var) &&
        !var->getType()->getContainedAutoType()) {
      if (!widened_.insert(var).second) return;
      edits = WidenDeclaration(*var, sm, lang);
    }
    Report(sm, assign->getLHS()->getBeginLoc(), MacroPlacement::kUse, kMessage32,
           edits.empty() ? "Declare the destination as unsigned long long (uint64_t)."
                         : "Widen the variable's declaration to unsigned long long.",
           std::move(edits));
    return;
  }
  const auto* count = result.Nodes.getNodeAs<clang::CallExpr>("count");
  if (!count || !HoldsBallot(count->getArg(0), lane_masks_)) return;
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

// `1u << lane` combined with a 64-bit ballot (`votes & ((1u << lane) - 1)`, the lanes below): a 32-bit bit for
// lanes 32-63 is 0 (or undefined), so the mask is computed in 64 bits.
void BallotWidthRule::CheckLaneBit(const clang::BinaryOperator& shift, clang::ASTContext& context) {
  const clang::SourceManager& sm = context.getSourceManager();
  if (shift.getType()->isDependentType() || context.getTypeSize(shift.getType()) > 32) return;
  const clang::BinaryOperator* mask = MaskOperation(context, shift);
  if (!mask) return;
  if (!HoldsBallot(mask->getLHS(), lane_masks_) && !HoldsBallot(mask->getRHS(), lane_masks_)) return;
  std::vector<EditSpec> edits;
  const clang::Expr* one = shift.getLHS()->IgnoreParenImpCasts();
  const auto begin = FileOffset(sm, one->getBeginLoc());
  const auto end = TokenEndOffset(sm, context.getLangOpts(), one->getBeginLoc());
  if (begin && end && !shift.getOperatorLoc().isMacroID()) edits.push_back({*begin, *end - *begin, "1ull"});
  Report(sm, one->getBeginLoc(), MacroPlacement::kUse,
         "32-bit lane bit (`1 << lane`) combined with a ballot: lanes 32-63 of a 64-wide wavefront (MI250/MI300) "
         "need a 64-bit bit",
         "Shift 1ull (a 64-bit lane mask).", std::move(edits));
}

// Token version: `__popc(__ballot_sync(` / `__ffs(__activemask(` written out.
void BallotWidthRule::CheckTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    const std::string_view name = tokens[i].text;
    if (name != "__popc" && name != "__ffs" && name != "__clz" && name != "__brev") continue;
    if (tokens[i + 1].text != "(" || !file.InFallbackRange(tokens[i].offset)) continue;
    const std::string_view argument = tokens[i + 2].text;
    if (!IsBallotOrActiveMask(argument)) continue;
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
