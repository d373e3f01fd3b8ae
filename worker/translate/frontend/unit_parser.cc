#include "worker/translate/frontend/unit_parser.h"

#include <algorithm>
#include <atomic>

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Sema/ExternalSemaSource.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallString.h"
#include "worker/translate/frontend/confined_file_system.h"
#include "worker/translate/frontend/parent_index.h"
#include "worker/translate/frontend/project_paths.h"

namespace hipforge::translate {
namespace {

namespace mat = clang::ast_matchers;

std::atomic<uint64_t> parse_count{0};

// Records the first error (and whether any was fatal); prints nothing: consumers report per file instead.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == clang::DiagnosticsEngine::Fatal) fatal = true;
    if (level < clang::DiagnosticsEngine::Error || !first_error.empty()) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const clang::PresumedLoc presumed = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (presumed.isValid()) {
        where = std::filesystem::path(presumed.getFilename()).filename().string() + ":" +
                std::to_string(presumed.getLine()) + ":" + std::to_string(presumed.getColumn()) + ": ";
      }
    }
    first_error = where + std::string(message.str());
  }
  std::string first_error;
  bool fatal = false;
};

// Drops the end-of-unit implicit instantiations of library templates (those the prelude PCH left pending and
// those user code triggered): their bodies hold nothing a consumer looks at (matchers see project declarations
// only), and instantiating them was most of the time of a small file. Sema asks its external sources for
// pending instantiations right before performing them, so a source added after the PCH reader sees them all.
class LibraryInstantiationFilter : public clang::ExternalSemaSource {
 public:
  LibraryInstantiationFilter(clang::Sema& sema, ProjectPaths& project) : sema_(sema), project_(project) {}

  void ReadPendingInstantiations(
      llvm::SmallVectorImpl<std::pair<clang::ValueDecl*, clang::SourceLocation>>& pending) override {
    auto is_library = [&](const clang::ValueDecl* decl) {
      const clang::Decl* pattern = nullptr;
      if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
        pattern = function->getTemplateInstantiationPattern();
      } else if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(decl)) {
        pattern = variable->getTemplateInstantiationPattern();
      }
      return pattern && !project_.Contains(sema_.getSourceManager(), pattern->getLocation());
    };
    auto drop = [&](const auto& entry) {
      if (!is_library(entry.first)) return false;
      dropped_.insert(entry.first);
      return true;
    };
    llvm::erase_if(pending, drop);
    auto& queued = sema_.PendingInstantiations;
    queued.erase(std::remove_if(queued.begin(), queued.end(), drop), queued.end());
  }

  // A dropped instantiation with no linkage (e.g. std::accumulate over a lambda) would otherwise be
  // reported as "used but not defined", an error that sends the file to the fallback.
  void ReadUndefinedButUsed(llvm::MapVector<clang::NamedDecl*, clang::SourceLocation>& undefined) override {
    undefined.remove_if([&](const auto& entry) { return dropped_.contains(entry.first); });
  }

 private:
  clang::Sema& sema_;
  ProjectPaths& project_;
  llvm::DenseSet<const clang::Decl*> dropped_;
};

// The function template instantiations a matcher traversal of some declarations reaches through their templates:
// MatchFinder's visitor, like this one, visits each template's instantiations where it visits the template. Bodies
// are not walked (an instantiation reached only from a body, e.g. a generic lambda's, is not listed).
class InstantiationsOfTemplates : public clang::RecursiveASTVisitor<InstantiationsOfTemplates> {
 public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseStmt(clang::Stmt*, DataRecursionQueue* = nullptr) { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl* function) {
    if (function->isTemplateInstantiation()) reached.insert(function);
    return true;
  }
  llvm::DenseSet<const clang::Decl*> reached;
};

// `scope` without the instantiations Sema handed over as top-level declarations that the rest of the scope reaches
// through their templates (so the matchers and the parent map visit each once), and with each declaration once.
std::vector<clang::Decl*> VisitedOnce(const std::vector<clang::Decl*>& scope) {
  auto handed_over = [](const clang::Decl* decl) {
    const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
    return function && function->isTemplateInstantiation();
  };
  InstantiationsOfTemplates templates;
  for (clang::Decl* decl : scope) {
    if (!handed_over(decl)) templates.TraverseDecl(decl);
  }
  llvm::DenseSet<const clang::Decl*> kept;
  std::vector<clang::Decl*> once;
  for (clang::Decl* decl : scope) {
    if (handed_over(decl) && templates.reached.contains(decl)) continue;
    if (kept.insert(decl).second) once.push_back(decl);
  }
  return once;
}

// Runs the shared matchers over the project's own top-level declarations only. Declarations from the prelude
// PCH and from toolkit/library headers are never visited, so the PCH stays lazily loaded and big headers
// (CUB, Thrust) cost only their parse.
class ProjectScopeConsumer : public clang::SemaConsumer {
 public:
  ProjectScopeConsumer(mat::MatchFinder& finder, ProjectPaths& project, const UnitParseRequest& request)
      : finder_(finder),
        project_(project),
        project_pch_(request.project_pch),
        instantiations_only_(request.instantiations_only) {}

  void Initialize(clang::ASTContext& context) override { sm_ = &context.getSourceManager(); }
  void InitializeSema(clang::Sema& sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  // With FrontendOptions::SkipFunctionBodies, the parser asks this for every function body (Sema keeps
  // constexpr functions and deduced return types regardless). Bodies outside the project hold nothing a
  // consumer matches, and skipping them is most of a library header's parse (clangd does the same).
  bool shouldSkipFunctionBody(clang::Decl* decl) override {
    return sm_ && !project_.Contains(*sm_, decl->getLocation());
  }

  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    // Added here, not in InitializeSema: the PCH reader attaches itself to Sema after the consumer is told
    // about Sema, and the filter must come after it to see the PCH's pending instantiations.
    if (sema_ && !instantiation_filter_) {
      instantiation_filter_ = llvm::makeIntrusiveRefCnt<LibraryInstantiationFilter>(*sema_, project_);
      sema_->addExternalSource(instantiation_filter_.get());
    }
    for (clang::Decl* decl : group) {
      if (decl && !decl->isFromASTFile()) top_level_.push_back(decl);
    }
    return true;
  }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    std::vector<clang::Decl*> scope;
    if (project_pch_ && !instantiations_only_) {
      // The prefix PCH's project declarations: the ones a parse without it is handed first (loading the
      // translation unit's declarations is the price, far below parsing them).
      for (clang::Decl* decl : context.getTranslationUnitDecl()->decls()) {
        if (decl->isFromASTFile() && project_.Contains(context.getSourceManager(), decl->getLocation())) {
          scope.push_back(decl);
        }
      }
    }
    for (clang::Decl* decl : top_level_) {
      // Sema hands each function it instantiates to HandleTopLevelDecl too, after the templates as written.
      if (instantiations_only_) {
        const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl);
        if (!function || !function->isTemplateInstantiation()) continue;
      }
      if (project_.Contains(context.getSourceManager(), decl->getLocation())) scope.push_back(decl);
    }
    context.setTraversalScope(VisitedOnce(scope));
    finder_.matchAST(context);
    ForgetParents(context);  // the consumers are done with the AST
  }

 private:
  mat::MatchFinder& finder_;
  ProjectPaths& project_;
  bool project_pch_;
  bool instantiations_only_;
  const clang::SourceManager* sm_ = nullptr;
  clang::Sema* sema_ = nullptr;
  llvm::IntrusiveRefCntPtr<LibraryInstantiationFilter> instantiation_filter_;
  std::vector<clang::Decl*> top_level_;
};

class SharedAction : public clang::ASTFrontendAction {
 public:
  SharedAction(const UnitParseRequest& request, const std::vector<ParseConsumer*>& consumers)
      : request_(request), consumers_(consumers), project_(request.root) {}

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    compiler.getFrontendOpts().SkipFunctionBodies = true;  // only outside the project: see shouldSkipFunctionBody
    for (ParseConsumer* consumer : consumers_) consumer->BeginParse(compiler, request_);
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    for (ParseConsumer* consumer : consumers_) consumer->RegisterMatchers(finder_);
    return std::make_unique<ProjectScopeConsumer>(finder_, project_, request_);
  }

 private:
  const UnitParseRequest& request_;
  const std::vector<ParseConsumer*>& consumers_;
  ProjectPaths project_;
  mat::MatchFinder finder_;
};

class SharedActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  SharedActionFactory(const UnitParseRequest& request, const std::vector<ParseConsumer*>& consumers)
      : request_(request), consumers_(consumers) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<SharedAction>(request_, consumers_);
  }

 private:
  const UnitParseRequest& request_;
  const std::vector<ParseConsumer*>& consumers_;
};

}  // namespace

UnitParseResult ParseUnit(const UnitParseRequest& request, const std::vector<ParseConsumer*>& consumers) {
  parse_count.fetch_add(1, std::memory_order_relaxed);
  clang::tooling::FixedCompilationDatabase database(request.file.parent_path().string(), request.args);
  clang::tooling::ClangTool tool(database, {request.file.string()}, std::make_shared<clang::PCHContainerOperations>(),
                                 MakeParseFileSystem(request.readable_roots));
  FirstErrorConsumer diagnostics;
  tool.setDiagnosticConsumer(&diagnostics);
  tool.setPrintErrorMessage(false);
  // Clang prints "N errors generated" itself unless carets are off; the first error already says why.
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster("-fno-caret-diagnostics", clang::tooling::ArgumentInsertPosition::END));
  SharedActionFactory factory(request, consumers);
  const int status = tool.run(&factory);
  UnitParseResult result;
  result.parsed = status == 0 && diagnostics.getNumErrors() == 0 && diagnostics.first_error.empty();
  result.fatal = diagnostics.fatal;
  if (!result.parsed) {
    result.first_error = diagnostics.first_error.empty() ? "Clang could not process the file" : diagnostics.first_error;
  }
  return result;
}

uint64_t UnitParseCount() { return parse_count.load(std::memory_order_relaxed); }

}  // namespace hipforge::translate
