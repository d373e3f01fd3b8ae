#include "worker/translate/analyze/rules/hb402_pageable_async_copy.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

bool IsPageableAllocator(llvm::StringRef name) {
  return name == "malloc" || name == "calloc" || name == "realloc" || name == "aligned_alloc" || name == "valloc" ||
         name == "memalign" || name == "_mm_malloc" || name == "pvalloc";
}

bool IsPinnedOrDeviceAllocator(llvm::StringRef name) {
  return name == "cudaMallocHost" || name == "cudaHostAlloc" || name == "cudaMalloc" || name == "cudaMallocManaged" ||
         name == "cudaMallocPitch" || name == "cudaMallocAsync" || name == "cudaMallocFromPoolAsync" ||
         name == "cuMemAllocHost" || name == "cuMemHostAlloc" || name == "cuMemAlloc" || name == "cuMemAllocManaged" ||
         name == "cudaMalloc3D" || name == "cudaHostGetDevicePointer" || name == "cudaGetSymbolAddress";
}

// std::vector<T> / thrust::host_vector<T> with the default std::allocator: heap memory, never pinned.
bool IsDefaultAllocatedVector(clang::QualType type) {
  type = type.getNonReferenceType().getCanonicalType();
  const auto* record = type->getAsCXXRecordDecl();
  const auto* specialization = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  if (!specialization) return false;
  const std::string name = specialization->getQualifiedNameAsString();
  if (name != "std::vector" && name != "thrust::host_vector" && name != "std::__1::vector") return false;
  const auto& arguments = specialization->getTemplateArgs();
  if (arguments.size() < 2 || arguments[1].getKind() != clang::TemplateArgument::Type) return true;
  const auto* allocator = arguments[1].getAsType()->getAsCXXRecordDecl();
  return allocator && allocator->getQualifiedNameAsString() == "std::allocator";
}

bool IsHostArray(const clang::VarDecl* var) {
  return var->getType()->isConstantArrayType() && !var->hasAttr<clang::CUDASharedAttr>() &&
         !var->hasAttr<clang::CUDADeviceAttr>() && !var->hasAttr<clang::CUDAConstantAttr>() &&
         !var->hasAttr<clang::HIPManagedAttr>();
}

}  // namespace

const RuleInfo& PageableAsyncCopyRule::info() const {
  static const RuleInfo kInfo{kRulePageableAsyncCopy, Severity::kWarning, RuleClass::kRuntime,
                              "cudaMemcpyAsync with host memory that is not pinned"};
  return kInfo;
}

void PageableAsyncCopyRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(callExpr(callee(functionDecl(hasAnyName("cudaMemcpyAsync", "cudaMemcpy2DAsync",
                                                            "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync"))))
                        .bind("copy"),
                    this);
  finder.addMatcher(varDecl(hasInitializer(expr().bind("init"))).bind("var"), this);
  finder.addMatcher(binaryOperator(hasOperatorName("=")).bind("assign"), this);
  finder.addMatcher(callExpr().bind("call"), this);
}

void PageableAsyncCopyRule::Check(const MatchFinder::MatchResult& result) {
  context_ = result.Context;
  if (const auto* copy = result.Nodes.getNodeAs<clang::CallExpr>("copy")) {
    const std::string name = CalleeName(copy);
    unsigned kind_index = 3;
    std::vector<unsigned> pointer_indexes = {0, 1};
    if (name == "cudaMemcpy2DAsync") {
      kind_index = 6;
      pointer_indexes = {0, 2};
    } else if (name == "cudaMemcpyToSymbolAsync") {
      kind_index = 4;
      pointer_indexes = {1};
    } else if (name == "cudaMemcpyFromSymbolAsync") {
      kind_index = 4;
      pointer_indexes = {0};
    }
    if (copy->getNumArgs() <= kind_index) return;
    if (const auto* kind = llvm::dyn_cast<clang::DeclRefExpr>(StripCasts(copy->getArg(kind_index)))) {
      if (kind->getDecl()->getName() == "cudaMemcpyDeviceToDevice") return;
    }
    Copy entry{copy, {}};
    for (unsigned index : pointer_indexes) entry.host_arguments.push_back(copy->getArg(index));
    copies_.push_back(std::move(entry));
    return;
  }
  if (const auto* var = result.Nodes.getNodeAs<clang::VarDecl>("var")) {
    if (var->getType()->isPointerType()) sources_[var].values.push_back(result.Nodes.getNodeAs<clang::Expr>("init"));
    return;
  }
  if (const auto* assign = result.Nodes.getNodeAs<clang::BinaryOperator>("assign")) {
    if (const auto* decl = NamedStorage(assign->getLHS()); decl && assign->getLHS()->getType()->isPointerType()) {
      sources_[decl].values.push_back(assign->getRHS());
    }
    return;
  }
  const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  if (!call) return;
  const std::string name = CalleeName(call);
  if (name == "cudaHostRegister" || name == "cuMemHostRegister") {
    if (call->getNumArgs() > 0) {
      const clang::Expr* pointer = StripCasts(call->getArg(0));
      if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(pointer)) {
        pointer = member->getImplicitObjectArgument();
      }
      if (const auto* decl = NamedStorage(pointer)) registered_.insert(decl);
    }
    return;
  }
  // Pointers whose address is handed to a function: allocators tell us what they return, anything else may
  // store anything.
  for (const clang::Expr* argument : call->arguments()) {
    const auto* address = llvm::dyn_cast<clang::UnaryOperator>(StripCasts(argument));
    if (!address || address->getOpcode() != clang::UO_AddrOf) continue;
    const clang::ValueDecl* decl = NamedStorage(address->getSubExpr());
    if (!decl || !decl->getType()->isPointerType()) continue;
    if (name == "posix_memalign") {
      continue;  // heap memory: the pointer keeps only pageable sources
    }
    if (IsPinnedOrDeviceAllocator(name)) {
      sources_[decl].not_pageable = true;
    } else {
      sources_[decl].escapes = true;
    }
  }
  // Arguments to user functions become sources of their parameters.
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee && !result.SourceManager->isInSystemHeader(callee->getLocation())) {
    for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
      const clang::ParmVarDecl* parameter = callee->getParamDecl(i);
      if (parameter->getType()->isPointerType()) sources_[parameter].values.push_back(call->getArg(i));
    }
  }
}

PageableAsyncCopyRule::Verdict PageableAsyncCopyRule::Resolve(const clang::ValueDecl* decl, int depth,
                                                              std::set<const clang::ValueDecl*>& visiting) const {
  if (depth > 6 || !visiting.insert(decl).second) return Verdict::kNotProvable;
  if (registered_.count(decl)) return Verdict::kNotProvable;
  const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
  if (var && IsHostArray(var)) return Verdict::kPageable;
  if (var && !llvm::isa<clang::ParmVarDecl>(var) && !var->getType()->isPointerType() &&
      !var->getType()->isReferenceType() && var->hasLocalStorage()) {
    return Verdict::kPageable;  // a scalar or struct on the stack, copied through &x
  }
  const auto it = sources_.find(decl);
  if (it == sources_.end()) return Verdict::kNotProvable;
  const Sources& sources = it->second;
  if (sources.not_pageable || sources.escapes) return Verdict::kNotProvable;
  if (var && var->hasExternalStorage()) return Verdict::kNotProvable;
  bool any = false;
  for (const clang::Expr* value : sources.values) {
    const clang::Expr* stripped = StripCasts(value);
    if (llvm::isa<clang::CXXNullPtrLiteralExpr>(stripped) || llvm::isa<clang::GNUNullExpr>(stripped)) continue;
    if (const auto* literal = llvm::dyn_cast<clang::IntegerLiteral>(stripped); literal && literal->getValue() == 0)
      continue;
    if (Classify(value, depth + 1, visiting) != Verdict::kPageable) return Verdict::kNotProvable;
    any = true;
  }
  return any ? Verdict::kPageable : Verdict::kNotProvable;
}

PageableAsyncCopyRule::Verdict PageableAsyncCopyRule::Classify(const clang::Expr* expr, int depth,
                                                               std::set<const clang::ValueDecl*>& visiting) const {
  expr = StripCasts(expr);
  if (!expr || depth > 6) return Verdict::kNotProvable;
  if (llvm::isa<clang::CXXNewExpr>(expr)) return Verdict::kPageable;
  if (const auto* member_call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    const auto* method = member_call->getMethodDecl();
    const clang::Expr* object = member_call->getImplicitObjectArgument();
    if (method && method->getName() == "data" && object && IsDefaultAllocatedVector(object->getType())) {
      const clang::ValueDecl* decl = NamedStorage(object);
      return decl && registered_.count(decl) ? Verdict::kNotProvable : Verdict::kPageable;
    }
    return Verdict::kNotProvable;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    return IsPageableAllocator(CalleeName(call)) ? Verdict::kPageable : Verdict::kNotProvable;
  }
  if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() != clang::UO_AddrOf) return Verdict::kNotProvable;
    const clang::Expr* operand = StripCasts(unary->getSubExpr());
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(operand)) {
      return Classify(subscript->getBase(), depth + 1, visiting);
    }
    if (const auto* op_call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(operand)) {
      if (op_call->getOperator() == clang::OO_Subscript && IsDefaultAllocatedVector(op_call->getArg(0)->getType())) {
        const clang::ValueDecl* decl = NamedStorage(op_call->getArg(0));
        return decl && registered_.count(decl) ? Verdict::kNotProvable : Verdict::kPageable;
      }
      return Verdict::kNotProvable;
    }
    if (const auto* decl = NamedStorage(operand)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
      if (var && !registered_.count(var) && var->hasLocalStorage() && !llvm::isa<clang::ParmVarDecl>(var) &&
          !var->getType()->isReferenceType()) {
        return Verdict::kPageable;  // &local
      }
    }
    return Verdict::kNotProvable;
  }
  if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->getOpcode() == clang::BO_Add || binary->getOpcode() == clang::BO_Sub) {
      const clang::Expr* pointer = binary->getLHS()->getType()->isPointerType() ? binary->getLHS() : binary->getRHS();
      return Classify(pointer, depth + 1, visiting);
    }
    return Verdict::kNotProvable;
  }
  if (const auto* decl = NamedStorage(expr)) return Resolve(decl, depth + 1, visiting);
  return Verdict::kNotProvable;
}

std::string PageableAsyncCopyRule::Describe(const clang::Expr* expr) const {
  const clang::ValueDecl* decl = NamedStorage(expr);
  if (!decl) {
    if (const auto* member_call = llvm::dyn_cast<clang::CXXMemberCallExpr>(StripCasts(expr))) {
      decl = NamedStorage(member_call->getImplicitObjectArgument());
    }
  }
  return decl ? "`" + decl->getName().str() + "`" : "the host buffer";
}

void PageableAsyncCopyRule::onEndOfTranslationUnit() {
  if (!context_) return;
  const clang::SourceManager& sm = context_->getSourceManager();
  for (const Copy& copy : copies_) {
    for (const clang::Expr* argument : copy.host_arguments) {
      std::set<const clang::ValueDecl*> visiting;
      if (Classify(argument, 0, visiting) != Verdict::kPageable) continue;
      Report(sm, copy.call->getBeginLoc(), MacroPlacement::kUse,
             CalleeName(copy.call) + " with pageable host memory (" + Describe(argument) +
                 " comes from malloc/new/std::vector/the stack): on AMD the copy is staged synchronously, does not "
                 "overlap, and device-to-host results may not be visible until the stream is synchronized",
             "Allocate the host buffer with hipHostMalloc (cudaMallocHost) or register it with hipHostRegister "
             "before the copy; otherwise synchronize the stream before using the data.");
      break;
    }
  }
  copies_.clear();
  sources_.clear();
  registered_.clear();
}

}  // namespace hipforge::translate::analyze
