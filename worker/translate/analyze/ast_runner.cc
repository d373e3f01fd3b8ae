#include "worker/translate/analyze/ast_runner.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "worker/translate/analyze/registry.h"
#include "worker/translate/frontend/confined_file_system.h"

namespace hipforge::translate::analyze {
namespace {

std::string RealName(const clang::SourceManager& sm, clang::FileID file) {
  const auto entry = sm.getFileEntryRefForID(file);
  if (!entry) return {};
  llvm::StringRef name = entry->getFileEntry().tryGetRealPathName();
  if (name.empty()) name = entry->getName();
  return name.str();
}

// Records which project files the preprocessor entered and which blocks it skipped.
class PreprocessorRecorder : public clang::PPCallbacks {
 public:
  PreprocessorRecorder(const clang::SourceManager& sm, FindingSink& paths, TranslationUnitResult& result)
      : sm_(sm), paths_(paths), result_(result) {}

  void FileChanged(clang::SourceLocation location, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason != EnterFile || location.isInvalid()) return;
    const std::string name = RealName(sm_, sm_.getFileID(location));
    if (name.empty()) return;
    if (auto relative = paths_.RelativePath(name)) result_.covered_files.insert(*relative);
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    const auto [file, begin] = sm_.getDecomposedLoc(sm_.getExpansionLoc(range.getBegin()));
    const auto [end_file, end] = sm_.getDecomposedLoc(sm_.getExpansionLoc(range.getEnd()));
    if (file != end_file) return;
    const std::string name = RealName(sm_, file);
    if (auto relative = paths_.RelativePath(name)) result_.skipped_ranges[*relative].emplace_back(begin, end);
  }

 private:
  const clang::SourceManager& sm_;
  FindingSink& paths_;
  TranslationUnitResult& result_;
};

// Matches only declarations outside system headers (the CUDA toolkit), as clang-tidy does by default.
class ProjectOnlyConsumer : public clang::ASTConsumer {
 public:
  explicit ProjectOnlyConsumer(clang::ast_matchers::MatchFinder& finder) : finder_(finder) {}
  void HandleTranslationUnit(clang::ASTContext& context) override {
    const clang::SourceManager& sm = context.getSourceManager();
    std::vector<clang::Decl*> scope;
    for (clang::Decl* decl : context.getTranslationUnitDecl()->decls()) {
      const clang::SourceLocation location = sm.getExpansionLoc(decl->getLocation());
      if (location.isValid() && sm.isInSystemHeader(location)) continue;
      scope.push_back(decl);
    }
    context.setTraversalScope(scope);
    finder_.matchAST(context);
  }

 private:
  clang::ast_matchers::MatchFinder& finder_;
};

class AnalyzeAction : public clang::ASTFrontendAction {
 public:
  AnalyzeAction(clang::ast_matchers::MatchFinder& finder, FindingSink& paths, TranslationUnitResult& result)
      : finder_(finder), paths_(paths), result_(result) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler, llvm::StringRef) override {
    compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorRecorder>(compiler.getSourceManager(), paths_, result_));
    return std::make_unique<ProjectOnlyConsumer>(finder_);
  }

 private:
  clang::ast_matchers::MatchFinder& finder_;
  FindingSink& paths_;
  TranslationUnitResult& result_;
};

class ActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  ActionFactory(clang::ast_matchers::MatchFinder& finder, FindingSink& paths, TranslationUnitResult& result)
      : finder_(finder), paths_(paths), result_(result) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<AnalyzeAction>(finder_, paths_, result_);
  }

 private:
  clang::ast_matchers::MatchFinder& finder_;
  FindingSink& paths_;
  TranslationUnitResult& result_;
};

// Counts errors and keeps the first one as the reason the AST rules were skipped.
class ErrorRecorder : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level == clang::DiagnosticsEngine::Fatal) fatal = true;
    if (level < clang::DiagnosticsEngine::Error || !first_error.empty()) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const auto& sm = info.getSourceManager();
      const auto location = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (location.isValid()) {
        where = std::filesystem::path(location.getFilename()).filename().string() + ":" +
                std::to_string(location.getLine()) + ": ";
      }
    }
    first_error = where + text.str().str();
  }
  std::string first_error;
  bool fatal = false;
};

}  // namespace

TranslationUnitResult RunAstRules(const std::vector<std::string>& clang_args, const std::filesystem::path& file,
                                  const std::filesystem::path& canonical_root, const std::set<std::string>& disabled,
                                  const std::vector<std::string>& readable_roots) {
  TranslationUnitResult result;
  FindingSink sink(canonical_root);
  auto rules = MakeRules(sink, disabled);
  clang::ast_matchers::MatchFinder finder;
  for (auto& rule : rules) rule->registerMatchers(&finder);

  std::vector<std::string> args = clang_args;
  args.push_back("-w");
  args.push_back("-I" + canonical_root.string());
  clang::tooling::FixedCompilationDatabase database(file.parent_path().string(), args);
  clang::tooling::ClangTool tool(database, {file.string()}, std::make_shared<clang::PCHContainerOperations>(),
                                 MakeParseFileSystem(readable_roots));
  ErrorRecorder errors;
  tool.setDiagnosticConsumer(&errors);
  ActionFactory factory(finder, sink, result);
  const int status = tool.run(&factory);
  result.parsed = status == 0 && errors.getNumErrors() == 0;
  result.fatal = errors.fatal;
  if (!result.parsed) result.first_error = errors.first_error.empty() ? "Clang could not parse the file" : errors.first_error;
  result.findings = std::move(sink.findings());
  return result;
}

}  // namespace hipforge::translate::analyze
