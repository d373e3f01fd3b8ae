#pragma once
// The build-file rewriters, listed explicitly (no static self-registration).
#include <memory>
#include <vector>

#include "worker/translate/repo/build_file_rewriter.h"

namespace hipforge::translate {

class RewriterRegistry {
 public:
  // CMake, Makefile, shell, Dockerfile, CI config, Python.
  static RewriterRegistry CreateDefault();
  void Register(std::unique_ptr<BuildFileRewriter> rewriter);
  // nullptr when no rewriter handles `kind` (the file is copied).
  const BuildFileRewriter* Find(RepoFileKind kind) const;

 private:
  std::vector<std::unique_ptr<BuildFileRewriter>> rewriters_;
};

}  // namespace hipforge::translate
