#pragma once
// CMakeLists.txt / *.cmake: the CUDA language, packages, targets, architectures and nvcc flags -> HIP.
#include "worker/translate/repo/build_file_rewriter.h"

namespace hipforge::translate {

class CMakeRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kCMake; }
  std::string name() const override { return "cmake"; }
  int version() const override { return 3; }  // 3: block through global properties, flag list variables
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

// The CUDA libraries a CMake file references (CUDA::cublas, ${CUDA_cublas_LIBRARY}, cublas in
// target_link_libraries, ...), by their CUDA names ("cublas").
std::set<std::string> CudaLibrariesInCMake(const std::string& content);

// The block that replaces `LANGUAGES CUDA` / `enable_language(CUDA)`: the HIP language where CMake supports it
// for this ROCm install, else hipcc as the C++ compiler. Exposed for the docs and tests.
std::string HipLanguageBlock(const std::vector<std::string>& architectures, const std::string& indent);

}  // namespace hipforge::translate
