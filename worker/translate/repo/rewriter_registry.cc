#include "worker/translate/repo/rewriter_registry.h"

#include "worker/translate/repo/cmake_rewriter.h"
#include "worker/translate/repo/line_rewriters.h"

namespace hipforge::translate {

RewriterRegistry RewriterRegistry::CreateDefault() {
  RewriterRegistry registry;
  registry.Register(std::make_unique<CMakeRewriter>());
  registry.Register(std::make_unique<MakefileRewriter>());
  registry.Register(std::make_unique<ShellScriptRewriter>());
  registry.Register(std::make_unique<DockerfileRewriter>());
  registry.Register(std::make_unique<CiConfigRewriter>());
  registry.Register(std::make_unique<PythonRewriter>());
  return registry;
}

void RewriterRegistry::Register(std::unique_ptr<BuildFileRewriter> rewriter) {
  rewriters_.push_back(std::move(rewriter));
}

const BuildFileRewriter* RewriterRegistry::Find(RepoFileKind kind) const {
  for (const auto& rewriter : rewriters_) {
    if (rewriter->kind() == kind) return rewriter.get();
  }
  return nullptr;
}

}  // namespace hipforge::translate
