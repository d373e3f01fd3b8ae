#include "worker/translate/analyze/rules/hb107_launch_warp_size.h"

#include <optional>

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/frontend/raw_lexer.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

// Names a warp size: WARP_SIZE, warp_size, kWarpSize, ggml_cuda_get_physical_warp_size, WARP; not warps_per_block.
bool NamesWarpSize(llvm::StringRef name) {
  const std::string lower = name.lower();
  const llvm::StringRef text(lower);
  if (!text.contains("warp") || text.contains("per")) return false;
  for (size_t at = text.find("warps"); at != llvm::StringRef::npos; at = text.find("warps", at + 1)) {
    if (!text.substr(at).starts_with("warpsize")) return false;  // a count of warps
  }
  return text.contains("size") || text.contains("width") || text.ends_with("warp");
}

const clang::FunctionDecl* AsWritten(const clang::FunctionDecl* function) {
  if (const clang::FunctionDecl* pattern = function->getTemplateInstantiationPattern()) function = pattern;
  return function->getCanonicalDecl();
}

bool HostOnly(const clang::FunctionDecl* function) {
  return !function->hasAttr<clang::CUDAGlobalAttr>() &&
         (!function->hasAttr<clang::CUDADeviceAttr>() || function->hasAttr<clang::CUDAHostAttr>());
}

struct CompileTimeWarp {
  std::string name;
  clang::SourceLocation literal;  // where its 32 is written
};

const clang::IntegerLiteral* Returned32(const clang::Stmt* stmt) {
  if (!stmt) return nullptr;
  if (const auto* ret = llvm::dyn_cast<clang::ReturnStmt>(stmt)) return FindIntegerLiteral(ret->getRetValue(), 32);
  for (const clang::Stmt* child : stmt->children()) {
    if (const clang::IntegerLiteral* found = Returned32(child)) return found;
  }
  return nullptr;
}

// The compile-time warp size of 32 that `expr` (a launch bound) is written with.
std::optional<CompileTimeWarp> FindCompileTimeWarp(const clang::Expr* expr, clang::ASTContext& context) {
  if (!expr) return std::nullopt;
  const clang::SourceManager& sm = context.getSourceManager();
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee && NamesWarpSize(callee->getName()) && ConstantValue(call, context) == 32) {
      const clang::FunctionDecl* definition = callee->getDefinition();
      const clang::IntegerLiteral* literal = definition ? Returned32(definition->getBody()) : nullptr;
      return CompileTimeWarp{callee->getNameAsString() + "()", literal ? literal->getBeginLoc() : call->getBeginLoc()};
    }
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && NamesWarpSize(var->getName()) && var->getInit() && ConstantValue(var->getInit(), context) == 32) {
      const clang::IntegerLiteral* literal = FindIntegerLiteral(var->getInit(), 32);
      return CompileTimeWarp{var->getNameAsString(), literal ? literal->getBeginLoc() : var->getLocation()};
    }
  }
  if (const auto* literal = llvm::dyn_cast<clang::IntegerLiteral>(expr)) {
    const std::string macro = MacroNameAt(sm, context.getLangOpts(), literal->getBeginLoc());
    if (literal->getValue() == 32 && NamesWarpSize(macro)) return CompileTimeWarp{macro, literal->getBeginLoc()};
  }
  for (const clang::Stmt* child : expr->children()) {
    if (auto found = FindCompileTimeWarp(llvm::dyn_cast_or_null<clang::Expr>(child), context)) return found;
  }
  return std::nullopt;
}

// The conditions of the #if/#elif/#else blocks around `location` (innermost first), read from the file's text:
// Clang skipped the branches the CUDA parse did not take.
std::vector<std::string> EnclosingConditions(const clang::SourceManager& sm, clang::SourceLocation location) {
  const clang::SourceLocation spelled = sm.getSpellingLoc(location);
  bool invalid = false;
  const llvm::StringRef text = sm.getBufferData(sm.getFileID(spelled), &invalid);
  if (invalid) return {};
  std::vector<std::string> conditions;
  size_t end = sm.getFileOffset(spelled);
  int depth = 0;
  while (end > 0 && conditions.size() < 8) {
    const size_t begin = text.rfind('\n', end - 1);
    const size_t start = begin == llvm::StringRef::npos ? 0 : begin + 1;
    const llvm::StringRef line = text.slice(start, end).trim();
    end = begin == llvm::StringRef::npos ? 0 : begin;
    if (!line.starts_with("#")) continue;
    const llvm::StringRef directive = line.drop_front().ltrim();
    if (directive.starts_with("endif")) {
      ++depth;
    } else if (directive.starts_with("if")) {  // if, ifdef, ifndef
      if (depth > 0) {
        --depth;
      } else {
        conditions.push_back(directive.str());
      }
    } else if (depth == 0 && (directive.starts_with("elif") || directive.starts_with("else"))) {
      conditions.push_back(directive.str());
    }
  }
  return conditions;
}

// Macros hipcc itself defines (the branch they pick is the migrated build's) vs a project's own HIP switch.
bool IsHipccMacro(llvm::StringRef word) {
  if (!word.starts_with("__")) return false;
  return word.contains("HIP") || word.contains("AMDGCN") || word.contains("GFX") || word.contains("gfx");
}
bool IsProjectHipSwitch(llvm::StringRef word) {
  return !word.starts_with("__") && (word.contains("HIP") || word.contains("ROCM") || word.contains("AMD"));
}

// Whether the migrated build keeps the 32: the branches around it are not chosen by hipcc's macros, unless a
// project switch gates them (`defined(GGML_USE_HIP) && defined(__GFX9__)`: the build does not define the switch).
// Sets `project_switch` to that switch.
bool HipKeeps32(const std::vector<std::string>& conditions, std::string* project_switch) {
  for (const std::string& condition : conditions) {
    bool hipcc = false;
    std::string project;
    for (const RawToken& token : LexAll(condition)) {
      if (!IsIdentifier(token)) continue;
      const llvm::StringRef word = llvm::StringRef(condition).substr(token.begin, token.length);
      if (IsHipccMacro(word)) hipcc = true;
      if (IsProjectHipSwitch(word) && project.empty()) project = word.str();
    }
    if (!project.empty() && (!hipcc || llvm::StringRef(condition).contains("&&"))) {
      *project_switch = project;
      return true;
    }
    if (hipcc) return false;
  }
  return true;
}

struct RunTimeRead {
  std::string what;
  clang::SourceLocation location;
};

// The first place `stmt` reads the warp size at run time: a field (prop.warpSize, info.devices[i].warp_size), the
// attribute enumerator, a non-constexpr function or a parameter named like the warp size.
std::optional<RunTimeRead> FindRunTimeWarpSize(const clang::Stmt* stmt) {
  if (!stmt) return std::nullopt;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(stmt)) {
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (field && NamesWarpSize(field->getName()))
      return RunTimeRead{"." + field->getNameAsString(), member->getMemberLoc()};
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt)) {
    const clang::ValueDecl* decl = ref->getDecl();
    const llvm::StringRef name = decl->getName();
    if (llvm::isa<clang::EnumConstantDecl>(decl) &&
        (name == "cudaDevAttrWarpSize" || name == "CU_DEVICE_ATTRIBUTE_WARP_SIZE")) {
      return RunTimeRead{name.str(), ref->getLocation()};
    }
    if (llvm::isa<clang::ParmVarDecl>(decl) && NamesWarpSize(name)) {
      return RunTimeRead{"parameter " + name.str(), ref->getLocation()};
    }
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee && !callee->isConstexpr() && NamesWarpSize(callee->getName())) {
      return RunTimeRead{callee->getNameAsString() + "()", call->getBeginLoc()};
    }
  }
  for (const clang::Stmt* child : stmt->children()) {
    if (auto found = FindRunTimeWarpSize(child)) return found;
  }
  return std::nullopt;
}

// True when `function` takes a launch's shape from its caller: a dim3 (or a struct of launch parameters) or a
// parameter named like a block.
bool TakesLaunchShape(const clang::FunctionDecl* function) {
  for (const clang::ParmVarDecl* parameter : function->parameters()) {
    const std::string type = parameter->getType().getNonReferenceType().getUnqualifiedType().getAsString();
    if (llvm::StringRef(type).contains("dim3") || llvm::StringRef(type).contains_insensitive("launch") ||
        parameter->getName().contains_insensitive("block")) {
      return true;
    }
  }
  return false;
}

// The host functions that name each of `callees` (as written), in a whole translation unit, instantiations
// included (a caller template's call of a launcher is resolved only there).
class CallerFinder : public clang::RecursiveASTVisitor<CallerFinder> {
 public:
  explicit CallerFinder(const std::set<const clang::FunctionDecl*>& callees) : callees_(callees) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(clang::Decl* decl) {
    const auto* function = llvm::dyn_cast_or_null<clang::FunctionDecl>(decl);
    const clang::FunctionDecl* outer = current_;
    if (function && function->doesThisDeclarationHaveABody()) current_ = function;
    const bool more = RecursiveASTVisitor::TraverseDecl(decl);
    current_ = outer;
    return more;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
    if (function && current_ && HostOnly(current_) && callees_.contains(AsWritten(function))) {
      callers_[AsWritten(function)].insert(current_);
    }
    return true;
  }
  const std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>>& callers() const { return callers_; }

 private:
  const std::set<const clang::FunctionDecl*>& callees_;
  const clang::FunctionDecl* current_ = nullptr;
  std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>> callers_;
};

}  // namespace

const RuleInfo& LaunchWarpSizeRule::info() const {
  static const RuleInfo kInfo{kRuleLaunchWarpSize, Severity::kError, RuleClass::kWavefront,
                              "Launch bounds from a compile-time warp size of 32, launched with the run-time one"};
  return kInfo;
}

void LaunchWarpSizeRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(
      functionDecl(hasAttr(clang::attr::CUDAGlobal), hasAttr(clang::attr::CUDALaunchBounds)).bind("kernel"), this);
}

void LaunchWarpSizeRule::Check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  source_manager_ = result.SourceManager;
  context_ = result.Context;
  if (const auto* kernel = result.Nodes.getNodeAs<clang::FunctionDecl>("kernel")) {
    const clang::FunctionDecl* key = AsWritten(kernel);
    if (kernels_.contains(key)) return;
    const clang::Expr* bound = kernel->getAttr<clang::CUDALaunchBoundsAttr>()->getMaxThreads();
    const std::optional<long long> threads = ConstantValue(bound, context);
    if (!threads) return;  // dependent in the template: its instantiations come as matches too
    std::optional<CompileTimeWarp> warp = FindCompileTimeWarp(bound, context);
    std::string project_switch;
    if (!warp || !HipKeeps32(EnclosingConditions(*result.SourceManager, warp->literal), &project_switch)) {
      kernels_[key];  // decided: silent
      return;
    }
    kernels_[key] = BoundedKernel{kernel, *threads, warp->name, project_switch};
  }
}

// Where a launcher of `bounded` reads the warp size at run time: in its own body, or, for one that takes the
// launch's shape from its caller, in a caller's (found in the TU once, for all such launchers: `callers`).
std::optional<LaunchWarpSizeRule::Evidence> LaunchWarpSizeRule::FindEvidence(
    const std::set<const clang::FunctionDecl*>& launchers, const CallersOf& callers) const {
  for (const clang::FunctionDecl* launcher : launchers) {
    if (auto read = FindRunTimeWarpSize(launcher->getBody()))
      return Evidence{launcher, nullptr, read->what, read->location};
  }
  for (const clang::FunctionDecl* launcher : launchers) {
    const auto found = callers.find(AsWritten(launcher));
    if (found == callers.end()) continue;
    for (const clang::FunctionDecl* caller : found->second) {
      if (auto read = FindRunTimeWarpSize(caller->getBody()))
        return Evidence{launcher, caller, read->what, read->location};
    }
  }
  return std::nullopt;
}

// The host functions naming the kernels (their launchers) and, for a launcher that takes the block's shape from
// its caller, the callers: each a walk of the TU, and only in a TU with a kernel this rule could report (few), so
// that no parse pays for a parent index (hasAncestor, EnclosingFunction) on this rule's account.
void LaunchWarpSizeRule::onEndOfTranslationUnit() {
  std::set<const clang::FunctionDecl*> candidates;
  for (const auto& [key, bounded] : kernels_) {
    if (bounded.kernel) candidates.insert(key);
  }
  if (!candidates.empty() && context_) {
    CallerFinder launchers(candidates);
    launchers.TraverseDecl(context_->getTranslationUnitDecl());
    std::set<const clang::FunctionDecl*> shaped;  // read no warp size themselves, take the block's shape
    for (const auto& [kernel, names] : launchers.callers()) {
      for (const clang::FunctionDecl* launcher : names) {
        if (!FindRunTimeWarpSize(launcher->getBody()) && TakesLaunchShape(launcher)) {
          shaped.insert(AsWritten(launcher));
        }
      }
    }
    CallerFinder callers(shaped);
    if (!shaped.empty()) callers.TraverseDecl(context_->getTranslationUnitDecl());
    for (const auto& [kernel, names] : launchers.callers()) {
      if (const std::optional<Evidence> evidence = FindEvidence(names, callers.callers())) {
        Report(kernels_.at(kernel), *evidence);
      }
    }
  }
  kernels_.clear();
}

void LaunchWarpSizeRule::Report(const BoundedKernel& bounded, const Evidence& evidence) {
  const clang::SourceManager& sm = *source_manager_;
  std::string message = "__launch_bounds__ of " + bounded.kernel->getNameAsString() + " (" +
                        std::to_string(bounded.threads) + " threads) are written with " + bounded.warp_name +
                        ", a compile-time warp size of 32";
  if (!bounded.project_switch.empty()) {
    message += " (its other branch is behind " + bounded.project_switch +
               ", the project's own HIP build switch, which the migrated build does not define)";
  }
  const std::string where = evidence.what + ", line " + std::to_string(sm.getSpellingLineNumber(evidence.location));
  message += "; " + evidence.launcher->getNameAsString() + ", which launches it, ";
  message += evidence.caller ? "takes the block's shape from " + evidence.caller->getNameAsString() +
                                   ", which reads the warp size at run time (" + where + ")"
                             : "reads the warp size at run time (" + where + ")";
  message +=
      ": 64 on MI250/MI300, so a block sized with it exceeds the bounds and the launch fails, and a kernel that "
      "takes threadIdx.x as its lane runs lanes 32-63 over the data of lanes 0-31";
  const clang::CUDALaunchBoundsAttr* attr = bounded.kernel->getAttr<clang::CUDALaunchBoundsAttr>();
  Rule::Report(sm, attr->getLocation(), MacroPlacement::kUse, std::move(message),
               "Make the two sizes one: launch with the compile-time size (" + bounded.warp_name +
                   ") so each wavefront runs the kernel's 32-lane logic as two halves, or make the constant 64 on "
                   "AMD (test __HIP_PLATFORM_AMD__ or __AMDGCN_WAVEFRONT_SIZE" +
                   (bounded.project_switch.empty() ? std::string()
                                                   : ", or define " + bounded.project_switch +
                                                         " if the rest of what it switches fits the migrated code") +
                   ") and check the kernel's lane arithmetic for 64 lanes.");
}

}  // namespace hipforge::translate::analyze
