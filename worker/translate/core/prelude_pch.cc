#include "worker/translate/core/prelude_pch.h"

#include <fstream>
#include <mutex>
#include <unistd.h>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "common/sha256.h"

namespace hipforge::translate {
namespace {

class GeneratePch : public clang::tooling::ToolAction {
 public:
  explicit GeneratePch(std::string output) : output_(std::move(output)) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch_operations,
                     clang::DiagnosticConsumer* diagnostics) override {
    invocation->getFrontendOpts().OutputFile = output_;
    invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    clang::CompilerInstance compiler(std::move(pch_operations));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    compiler.createSourceManager(*files);
    clang::GeneratePCHAction action;
    return compiler.ExecuteAction(action) && !compiler.getDiagnostics().hasErrorOccurred();
  }

 private:
  std::string output_;
};

class SilentConsumer : public clang::DiagnosticConsumer {};

std::mutex& BuildMutex() {
  static std::mutex mutex;  // one build at a time in this process; other processes race safely via rename
  return mutex;
}

}  // namespace

std::optional<std::filesystem::path> EnsurePreludePch(const std::vector<std::string>& args,
                                                      const std::filesystem::path& directory) {
  std::string key_text = clang::getClangFullVersion();
  for (const auto& arg : args) key_text += '\n' + arg;
  const std::string key = Sha256Hex(key_text).substr(0, 24);
  const auto pch = directory / (key + ".pch");
  std::lock_guard lock(BuildMutex());
  std::error_code error;
  if (std::filesystem::exists(pch, error)) return pch;
  std::filesystem::create_directories(directory, error);
  if (error) return std::nullopt;
  const auto prelude = directory / ("prelude-" + key + ".cu");
  {
    std::ofstream out(prelude);
    out << "// hipforge: CUDA prelude; the implicit CUDA wrapper include is what gets precompiled.\n";
    if (!out) return std::nullopt;
  }
  const auto temporary = directory / (key + ".pch.tmp" + std::to_string(::getpid()));
  clang::tooling::FixedCompilationDatabase database(directory.string(), args);
  clang::tooling::ClangTool tool(database, {prelude.string()});
  SilentConsumer diagnostics;
  tool.setDiagnosticConsumer(&diagnostics);
  tool.setPrintErrorMessage(false);
  GeneratePch action(temporary.string());
  const bool built = tool.run(&action) == 0 && std::filesystem::exists(temporary, error);
  if (!built) {
    std::filesystem::remove(temporary, error);
    return std::nullopt;
  }
  std::filesystem::rename(temporary, pch, error);
  if (error) return std::nullopt;
  return pch;
}

bool IsPchProblem(const std::string& first_error) {
  return first_error.find("PCH") != std::string::npos || first_error.find("precompiled") != std::string::npos ||
         first_error.find("AST file") != std::string::npos;
}

}  // namespace hipforge::translate
