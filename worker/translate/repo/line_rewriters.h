#pragma once
// Rewriters for line-oriented files: Makefiles, shell scripts, Dockerfiles, CI configs, Python.
#include <string>
#include <vector>

#include "worker/translate/repo/build_file_rewriter.h"

namespace hipforge::translate {

class MakefileRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kMakefile; }
  std::string name() const override { return "makefile"; }
  int version() const override { return 5; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

class ShellScriptRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kShellScript; }
  std::string name() const override { return "shell"; }
  int version() const override { return 4; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

class DockerfileRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kDockerfile; }
  std::string name() const override { return "docker"; }
  int version() const override { return 4; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

class CiConfigRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kCiConfig; }
  std::string name() const override { return "ci"; }
  int version() const override { return 4; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

class PythonRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kPython; }
  std::string name() const override { return "python"; }
  int version() const override { return 4; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

// `nvidia/cuda:12.2.0-devel-ubuntu22.04` -> `rocm/dev-ubuntu-22.04:6.4`; empty when `image` is not an NVIDIA one.
// `note` says what a person should check (cuDNN, a non-Ubuntu base, a framework image).
std::string MapContainerImage(const std::string& image, const std::string& rocm_version, std::string& note);

// The source files a setup.py's CUDAExtension lists (as written, relative to setup.py).
std::vector<std::string> CudaExtensionSources(const std::string& setup_py);

}  // namespace hipforge::translate
