#include "worker/translate/analyze/ast_helpers.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "worker/translate/frontend/parent_index.h"
#include "worker/translate/tables/warp_intrinsics.h"

#include <algorithm>
#include <set>
#include <vector>

namespace hipforge::translate::analyze {
namespace {

bool IsBuiltinVariable(const clang::DeclRefExpr* ref, llvm::StringRef name) {
  const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  return var && var->getName() == name;
}

bool DerivesImpl(const clang::Stmt* stmt, bool allow_block_dim, int depth) {
  if (!stmt || depth > 6) return false;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
    if (IsBuiltinVariable(ref, "threadIdx")) return true;
    if (allow_block_dim && IsBuiltinVariable(ref, "blockDim")) return true;
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
      if (var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var) && var->getInit()) {
        return DerivesImpl(var->getInit(), allow_block_dim, depth + 1);
      }
    }
    return false;
  }
  if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(stmt)) {
    if (const auto* method = call->getMethodDecl()) {
      if (method->getName() == "thread_rank") return true;
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    const std::string name = CalleeName(call);
    if (name == "__lane_id" || name == "__laneid") return true;
  }
  if (const auto* opaque = llvm::dyn_cast<clang::OpaqueValueExpr>(stmt)) {
    return DerivesImpl(opaque->getSourceExpr(), allow_block_dim, depth);
  }
  // A value loaded through a thread-derived index (`data[tid]`, `*ptr`) is data, not an index: bitmaps index
  // 32-bit words with `v >> 5` / `v & 31` on such values.
  if (llvm::isa<clang::ArraySubscriptExpr>(stmt)) return false;
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(stmt)) {
    if (unary->getOpcode() == clang::UO_Deref) return false;
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (DerivesImpl(child, allow_block_dim, depth)) return true;
  }
  return false;
}

// A warp intrinsic of the table (worker/translate/tables/warp_intrinsics.h) in CUDA's or the maskless spelling, a
// cooperative-groups tile member the table names (tile.shfl_down, tile.ballot), or tiled_partition itself.
bool IsWarpPrimitiveName(std::string_view name) {
  if (name.empty()) return false;
  if (FindWarpIntrinsicSpelling(name) || name == "tiled_partition") return true;
  for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
    if (name == intrinsic.group_member) return true;
  }
  return false;
}

// Vote, ballot, match and reduce. __activemask is left out: it is the mask argument of segment shuffles
// (`__shfl_up_sync(__activemask(), ...)`); so are __syncwarp and __fns, which combine no lanes' values.
bool CombinesLanes(WarpOp op) {
  return op == WarpOp::kVote || op == WarpOp::kBallot || op == WarpOp::kMatch || op == WarpOp::kReduce;
}

class WarpPrimitiveFinder : public clang::RecursiveASTVisitor<WarpPrimitiveFinder> {
 public:
  explicit WarpPrimitiveFinder(int depth = 0) : depth_(depth) {}
  bool VisitCallExpr(clang::CallExpr* call) {
    const std::string name = CalleeName(call);
    // A helper of the project that shuffles (`val = warpReduceSum(val)`) makes its caller warp code too.
    if (const clang::FunctionDecl* callee = call->getDirectCallee(); callee && depth_ < 2) {
      const clang::FunctionDecl* definition = nullptr;
      if (callee->hasBody(definition) && definition &&
          !definition->getASTContext().getSourceManager().isInSystemHeader(definition->getLocation())) {
        WarpPrimitiveFinder inner(depth_ + 1);
        inner.TraverseStmt(definition->getBody());
        if (inner.found) {
          found = true;
          return false;
        }
      }
    }
    if (IsWarpPrimitiveName(name)) {
      found = true;
      return false;
    }
    return true;
  }
  bool found = false;

 private:
  int depth_ = 0;
};

}  // namespace

const clang::Expr* StripCasts(const clang::Expr* expr) {
  while (expr) {
    const clang::Expr* next = expr->IgnoreParenImpCasts();
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(next)) next = cast->getSubExpr();
    if (next == expr) break;
    expr = next;
  }
  return expr;
}

std::string CalleeName(const clang::CallExpr* call) {
  if (const auto* callee = call->getDirectCallee()) {
    if (callee->getDeclName().isIdentifier()) return callee->getName().str();
    return {};
  }
  // Unresolved calls in templates: take the spelled name.
  const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
  if (const auto* lookup = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
    return lookup->getName().getAsString();
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(callee)) return ref->getNameInfo().getAsString();
  return {};
}

bool DerivesFromThreadIndex(const clang::Expr* expr, bool allow_block_dim) {
  return DerivesImpl(expr, allow_block_dim, 0);
}

bool UsesWarpPrimitives(const clang::FunctionDecl* function) {
  if (!function || !function->hasBody()) return false;
  WarpPrimitiveFinder finder;
  finder.TraverseStmt(function->getBody());
  return finder.found;
}

// True when `expr` refers to CUDA's `warpSize` (a constant 32 in Clang's CUDA headers, so constant folding
// alone would mistake wave-size-agnostic code for a literal 32). Declared where used (hb101, hb104).
bool MentionsWarpSize(const clang::Expr* expr) {
  if (!expr) return false;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (ref->getDecl()->getName() == "warpSize") return true;
  }
  for (const clang::Stmt* child : expr->children()) {
    if (MentionsWarpSize(llvm::dyn_cast_or_null<clang::Expr>(child))) return true;
  }
  return false;
}

const clang::FunctionDecl* EnclosingFunction(clang::ASTContext& context, const clang::Stmt& node) {
  clang::DynTypedNodeList parents = ParentsOf(context, node);
  for (int guard = 0; guard < 256 && !parents.empty(); ++guard) {
    const clang::DynTypedNode& parent = parents[0];
    if (const auto* function = parent.get<clang::FunctionDecl>()) return function;
    if (const auto* lambda = parent.get<clang::LambdaExpr>()) return lambda->getCallOperator();
    parents = ParentsOf(context, parent);
  }
  return nullptr;
}

bool IsDeviceFunction(const clang::FunctionDecl* function) {
  if (!function) return false;
  if (function->hasAttr<clang::CUDAGlobalAttr>() || function->hasAttr<clang::CUDADeviceAttr>()) return true;
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function)) {
    if (method->getParent()->isLambda()) return true;  // lambdas passed to kernels; the caller checks context
  }
  return false;
}

std::optional<long long> ConstantValue(const clang::Expr* expr, const clang::ASTContext& context) {
  if (!expr || expr->isValueDependent() || expr->isTypeDependent()) return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsInt(result, context)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

const clang::IntegerLiteral* FindIntegerLiteral(const clang::Expr* expr, long long value) {
  if (!expr || llvm::isa<clang::SubstNonTypeTemplateParmExpr>(expr)) return nullptr;
  if (const auto* literal = llvm::dyn_cast<clang::IntegerLiteral>(expr)) {
    return literal->getValue().getLimitedValue() == static_cast<unsigned long long>(value) ? literal : nullptr;
  }
  for (const clang::Stmt* child : expr->children()) {
    if (const auto* child_expr = llvm::dyn_cast_or_null<clang::Expr>(child)) {
      if (const auto* found = FindIntegerLiteral(child_expr, value)) return found;
    }
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl())) {
      if (var->getType().isConstQualified() && var->getInit()) return FindIntegerLiteral(var->getInit(), value);
    }
  }
  return nullptr;
}

const clang::IntegerLiteral* WrittenIntegerLiteral(const clang::Expr* expr) {
  while (expr && !llvm::isa<clang::SubstNonTypeTemplateParmExpr>(expr)) {
    const clang::Expr* next = expr->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(next)) next = cast->getSubExpr();
    if (const auto* full = llvm::dyn_cast<clang::FullExpr>(next)) next = full->getSubExpr();
    if (next == expr) return llvm::dyn_cast<clang::IntegerLiteral>(expr);
    expr = next;
  }
  return nullptr;
}

std::string MacroNameAt(const clang::SourceManager& sm, const clang::LangOptions& lang,
                        clang::SourceLocation location) {
  if (!location.isMacroID()) return {};
  // Walk out of macro-argument expansions to the macro whose body spelled the token.
  while (location.isMacroID() && sm.isMacroArgExpansion(location)) location = sm.getImmediateSpellingLoc(location);
  if (!location.isMacroID()) return {};
  return clang::Lexer::getImmediateMacroName(location, sm, lang).str();
}

std::optional<unsigned> FileOffset(const clang::SourceManager& sm, clang::SourceLocation location) {
  if (location.isInvalid() || location.isMacroID()) return std::nullopt;
  return sm.getFileOffset(location);
}

std::optional<unsigned> TokenEndOffset(const clang::SourceManager& sm, const clang::LangOptions& lang,
                                       clang::SourceLocation location) {
  if (location.isInvalid() || location.isMacroID()) return std::nullopt;
  const unsigned length = clang::Lexer::MeasureTokenLength(location, sm, lang);
  return sm.getFileOffset(location) + length;
}

const clang::ValueDecl* NamedStorage(const clang::Expr* expr) {
  expr = StripCasts(expr);
  if (!expr) return nullptr;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) return ref->getDecl();
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) return member->getMemberDecl();
  return nullptr;
}

bool IsBallotName(llvm::StringRef name) {
  const WarpIntrinsic* intrinsic = FindWarpIntrinsicSpelling(std::string_view(name.data(), name.size()));
  return intrinsic && ReturnsLaneMask(intrinsic->op);
}

namespace {

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

// The locals a function assigns a lane mask: `mask = __ballot_sync(...)` or `mask = votes` (votes initialized from
// one). One level deep, so a chain of copies is not followed.
class LaneMaskAssignments : public clang::RecursiveASTVisitor<LaneMaskAssignments> {
 public:
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->getOpcode() != clang::BO_Assign) return true;
    const auto* lhs = llvm::dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts());
    const auto* var = lhs ? llvm::dyn_cast<clang::VarDecl>(lhs->getDecl()) : nullptr;
    if (!var || !var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var)) return true;
    const clang::Expr* value = StripCasts(op->getRHS());
    const auto* from = llvm::dyn_cast<clang::DeclRefExpr>(value);
    const auto* source = from ? llvm::dyn_cast<clang::VarDecl>(from->getDecl()) : nullptr;
    if (ContainsBallot(value) || (source && source->getInit() && ContainsBallot(source->getInit()))) found.insert(var);
    return true;
  }
  std::set<const clang::VarDecl*> found;
};

class BallotStoreFinder : public clang::RecursiveASTVisitor<BallotStoreFinder> {
 public:
  explicit BallotStoreFinder(clang::ASTContext& context) : context_(context) {}
  LaneMaskLocals lane_masks;
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    // The mask itself (`= votes`, `= __ballot_sync(...)`, through casts), not a value computed from it.
    const clang::Expr* value = StripCasts(op->getRHS());
    if (op->getOpcode() != clang::BO_Assign ||
        !(llvm::isa<clang::DeclRefExpr>(value) || llvm::isa<clang::CallExpr>(value)) ||
        !HoldsBallot(value, lane_masks)) {
      return true;
    }
    const clang::Expr* lhs = op->getLHS()->IgnoreParens();
    const clang::QualType type = lhs->getType();
    if (type->isDependentType() || !type->isIntegerType() || context_.getTypeSize(type) > 32) return true;
    if (llvm::isa<clang::DeclRefExpr>(lhs)) return true;  // a local kept in 32 bits is HB103's widening case
    found = op;
    return false;
  }
  const clang::BinaryOperator* found = nullptr;

 private:
  clang::ASTContext& context_;
};

// Looks for a function that works in 32-lane segments on its own: a lane from a literal 32 of the thread index, and
// only shuffles whose source lane stays in its segment (explicit width 32, or an xor mask below 32).
class SegmentShuffleFinder : public clang::RecursiveASTVisitor<SegmentShuffleFinder> {
 public:
  explicit SegmentShuffleFinder(clang::ASTContext& context) : context_(context) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (ref->getDecl()->getName() == "warpSize") other = true;
    return !other;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    lane_from_32 |= IsLaneExpression(*op, context_, /*or_warp_size=*/false);
    return true;
  }
  // `for (m = 1; m < 32; m *= 2)`, `for (m = 16; m > 0; m /= 2)`: the loop variable stays below 32.
  bool VisitForStmt(clang::ForStmt* loop) {
    const auto* decl = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit());
    const auto* var = decl && decl->isSingleDecl() ? llvm::dyn_cast<clang::VarDecl>(decl->getSingleDecl()) : nullptr;
    const auto* condition = llvm::dyn_cast_or_null<clang::BinaryOperator>(
        loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
    if (!var || !var->getInit() || !condition) return true;
    const auto start = ConstantValue(var->getInit(), context_);
    const auto bound = ConstantValue(condition->getRHS(), context_);
    if (!start || !bound || *start < 1 || *start > 31) return true;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(StripCasts(condition->getLHS()));
    if (!ref || ref->getDecl() != var) return true;
    const bool below = (condition->getOpcode() == clang::BO_LT && *bound <= 32) ||
                       (condition->getOpcode() == clang::BO_LE && *bound < 32) ||
                       (condition->getOpcode() == clang::BO_GT && *bound >= 0 && *start <= 16);
    if (below) bounded_.push_back(var);
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    const std::string callee = CalleeName(call);
    const llvm::StringRef name(callee);
    const WarpIntrinsic* intrinsic = FindWarpIntrinsicSpelling(callee);
    if (intrinsic && IsShuffle(intrinsic->op)) {
      if (StaysInSegment(*call, *intrinsic, callee)) {
        ++segment_shuffles;
      } else {
        other = true;
      }
    } else if ((intrinsic && CombinesLanes(intrinsic->op)) || name == "tiled_partition") {
      other = true;
    } else if (const clang::FunctionDecl* helper = call->getDirectCallee();
               helper && !context_.getSourceManager().isInSystemHeader(helper->getLocation()) &&
               UsesWarpPrimitives(helper)) {
      other = true;  // a helper of the project that shuffles is fixed on its own terms
    }
    return !other;
  }
  int segment_shuffles = 0;
  bool lane_from_32 = false;
  bool other = false;

 private:
  bool StaysInSegment(const clang::CallExpr& call, const WarpIntrinsic& shuffle, std::string_view name) const {
    const unsigned value_index = name == shuffle.name ? 1 : 0;  // CUDA's spelling takes the mask first
    const unsigned width_index = value_index + 2;
    const clang::Expr* width = call.getNumArgs() > width_index ? call.getArg(width_index) : nullptr;
    const bool default_width = !width || llvm::isa<clang::CXXDefaultArgExpr>(width);
    if (!default_width) return ConstantValue(width, context_) == 32 && !MentionsWarpSize(width);
    if (shuffle.op != WarpOp::kShuffleXor || call.getNumArgs() <= value_index + 1) return false;
    const clang::Expr* lane_mask = call.getArg(value_index + 1);
    if (const auto value = ConstantValue(lane_mask, context_)) return *value >= 0 && *value < 32;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(StripCasts(lane_mask));
    return ref && std::find(bounded_.begin(), bounded_.end(), ref->getDecl()) != bounded_.end();
  }
  clang::ASTContext& context_;
  std::vector<const clang::ValueDecl*> bounded_;
};

}  // namespace

bool IsLaneExpression(const clang::BinaryOperator& op, const clang::ASTContext& context, bool or_warp_size) {
  if (!DerivesFromThreadIndex(op.getLHS(), false)) return false;
  const bool warp_size = MentionsWarpSize(op.getRHS());
  if (warp_size) return or_warp_size && (op.getOpcode() == clang::BO_Rem || op.getOpcode() == clang::BO_And);
  const auto value = ConstantValue(op.getRHS(), context);
  return (op.getOpcode() == clang::BO_Rem && value == 32) || (op.getOpcode() == clang::BO_And && value == 31);
}

bool LaneMaskLocals::Assigned(const clang::VarDecl* var) {
  if (!var->hasLocalStorage() || llvm::isa<clang::ParmVarDecl>(var)) return false;
  const auto* function = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  if (!function || !function->hasBody()) return false;
  auto [it, inserted] = by_function_.try_emplace(function);
  if (inserted) {
    LaneMaskAssignments finder;
    finder.TraverseStmt(function->getBody());
    it->second = std::move(finder.found);
  }
  return it->second.count(var) > 0;
}

bool HoldsBallot(const clang::Stmt* stmt, LaneMaskLocals& lane_masks) {
  if (!stmt) return false;
  if (ContainsBallot(stmt)) return true;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var) return false;
    return (var->getInit() && ContainsBallot(var->getInit())) || lane_masks.Assigned(var);
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (HoldsBallot(child, lane_masks)) return true;
  }
  return false;
}

const clang::BinaryOperator* BallotStoredIn32Bits(const clang::FunctionDecl* function, clang::ASTContext& context) {
  if (!function || !function->hasBody()) return nullptr;
  BallotStoreFinder finder(context);
  finder.TraverseStmt(function->getBody());
  return finder.found;
}

bool ShufflesInSegmentsOf32(const clang::FunctionDecl* function, clang::ASTContext& context) {
  if (!function || !function->hasBody()) return false;
  SegmentShuffleFinder finder(context);
  finder.TraverseStmt(function->getBody());
  return !finder.other && finder.segment_shuffles > 0 && finder.lane_from_32;
}

}  // namespace hipforge::translate::analyze
