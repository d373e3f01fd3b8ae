#include "worker/translate/analyze/rules/hb406_memory_ordering.h"

#include <set>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

bool IsSharedOrLocal(const clang::Expr* expr) {
  expr = StripCasts(expr);
  // Walk to the base object: a[i], p->f, *p, &x.
  for (int guard = 0; guard < 16 && expr; ++guard) {
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) {
      expr = StripCasts(subscript->getBase());
    } else if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr)) {
      if (!member->isArrow()) {
        expr = StripCasts(member->getBase());
      } else {
        return false;  // through a pointer: global memory unless proven otherwise
      }
    } else if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
      if (unary->getOpcode() == clang::UO_AddrOf) {
        expr = StripCasts(unary->getSubExpr());
      } else {
        return false;
      }
    } else {
      break;
    }
  }
  const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(expr);
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var) return false;
  if (var->hasAttr<clang::CUDASharedAttr>()) return true;
  return var->hasLocalStorage() && !var->getType()->isPointerType() && !var->getType()->isReferenceType();
}

// A read of memory other blocks may write, in a loop condition.
class SpinRead : public clang::RecursiveASTVisitor<SpinRead> {
 public:
  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* cast) {
    if (cast->getCastKind() == clang::CK_LValueToRValue && cast->getSubExpr()->getType().isVolatileQualified() &&
        !IsSharedOrLocal(cast->getSubExpr())) {
      found = true;
      return false;
    }
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    const std::string name = CalleeName(call);
    // Polling/lock patterns have constant operands: atomicCAS(lock, 0, 1), atomicExch(flag, 1),
    // atomicAdd(flag, 0). A CAS retry loop (`while ((old = atomicCAS(p, assumed, f(assumed))) != assumed)`)
    // waits on nobody and is fine on AMD.
    const bool is_cas = name == "atomicCAS" || name == "atomicCAS_system";
    const bool is_rmw =
        name == "atomicExch" || name == "atomicAdd" || name == "atomicOr" || name == "atomicExch_system";
    auto constant = [&](unsigned index) {
      return call->getNumArgs() > index && llvm::isa<clang::IntegerLiteral>(StripCasts(call->getArg(index)));
    };
    const bool polling = (is_cas && constant(1) && constant(2)) || (is_rmw && constant(1));
    if (polling && !IsSharedOrLocal(call->getArg(0))) {
      found = true;
      return false;
    }
    return true;
  }
  bool found = false;
};

}  // namespace

const RuleInfo& MemoryOrderingRule::info() const {
  static const RuleInfo kInfo{kRuleMemoryOrdering, Severity::kWarning, RuleClass::kRuntime,
                              "Memory-ordering assumptions (__threadfence*, *_system atomics, volatile spin-waits)"};
  return kInfo;
}

void MemoryOrderingRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(whileStmt().bind("loop"), this);
  finder.addMatcher(doStmt().bind("loop"), this);
  finder.addMatcher(forStmt(unless(hasLoopInit(anything()))).bind("loop"), this);
}

void MemoryOrderingRule::Check(const MatchFinder::MatchResult& result) {
  const auto* loop = result.Nodes.getNodeAs<clang::Stmt>("loop");
  const clang::Expr* condition = nullptr;
  if (const auto* while_loop = llvm::dyn_cast<clang::WhileStmt>(loop)) condition = while_loop->getCond();
  if (const auto* do_loop = llvm::dyn_cast<clang::DoStmt>(loop)) condition = do_loop->getCond();
  if (const auto* for_loop = llvm::dyn_cast<clang::ForStmt>(loop)) condition = for_loop->getCond();
  if (!condition) return;
  const clang::FunctionDecl* function = EnclosingFunction(*result.Context, *loop);
  if (!function || (!function->hasAttr<clang::CUDAGlobalAttr>() && !function->hasAttr<clang::CUDADeviceAttr>())) return;
  SpinRead read;
  read.TraverseStmt(const_cast<clang::Expr*>(condition));
  if (!read.found) return;
  Report(*result.SourceManager, loop->getBeginLoc(), MacroPlacement::kUse,
         "spin-wait on memory written by other blocks/threads: AMD GPUs give no forward-progress guarantee between "
         "workgroups without a cooperative launch, and volatile does not order the surrounding accesses",
         "Use atomics with explicit scope and ordering (__hip_atomic_load with __ATOMIC_ACQUIRE and "
         "__HIP_MEMORY_SCOPE_AGENT), a cooperative launch with grid sync, or split the kernel.");
}

void MemoryOrderingRule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || !IsCallAt(tokens, i)) continue;
    if (token.in_directive && token.directive != "define") continue;
    const std::string_view word = token.text;
    const bool fence = word == "__threadfence" || word == "__threadfence_block" || word == "__threadfence_system";
    const bool system_atomic =
        word.rfind("atomic", 0) == 0 && word.size() > 7 && word.substr(word.size() - 7) == "_system";
    if (!fence && !system_atomic) continue;
    if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    if (fence) {
      Report(file, token.offset,
             std::string(word) +
                 ": fence semantics differ on AMD (L2 is per GCD on MI250; fine-grained vs "
                 "coarse-grained host memory changes what a system fence makes visible)",
             "Check the producer/consumer protocol: use __atomic/__hip_atomic operations with explicit memory scope, "
             "and fine-grained (hipHostMallocCoherent) memory for host-visible flags.");
    } else {
      Report(file, token.offset,
             std::string(word) +
                 ": system-scope atomic: on AMD it is atomic only on fine-grained memory "
                 "(hipHostMallocCoherent / hipExtMallocWithFlags fine-grained); on coarse-grained "
                 "memory it silently is not",
             "Allocate the target with fine-grained memory, or use device-scope atomics if the host/peer does not "
             "need them.");
    }
  }
}

}  // namespace hipforge::translate::analyze
