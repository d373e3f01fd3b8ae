#pragma once
// CMakeLists.txt / *.cmake: the CUDA language, packages, targets, architectures and nvcc flags -> HIP.
#include "worker/translate/repo/build_file_rewriter.h"

namespace hipforge::translate {

class CMakeRewriter final : public BuildFileRewriter {
 public:
  RepoFileKind kind() const override { return RepoFileKind::kCMake; }
  std::string name() const override { return "cmake"; }
  // 3: block through global properties, flag list variables; 4: the block is a module the CMake file includes
  int version() const override { return 6; }
  RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                        const RewriteContext& context) const override;
};

// The CUDA libraries a CMake file references (CUDA::cublas, ${CUDA_cublas_LIBRARY}, cublas in
// target_link_libraries, ...), by their CUDA names ("cublas").
std::set<std::string> CudaLibrariesInCMake(const std::string& content);

// What replaces `LANGUAGES CUDA` / `enable_language(CUDA)`: the HIP language where CMake supports it for this ROCm
// install, else hipcc as the C++ compiler. It lives in a module of the migrated tree (kHipMigrationModule,
// HipMigrationModule) that the CMake file includes with one line (HipMigrationInclude).
inline constexpr const char* kHipMigrationModule = "cmake/hipforge/HipMigration.cmake";
std::string HipLanguageBlock(const std::vector<std::string>& architectures, const std::string& indent);
std::string HipMigrationModule(const std::vector<std::string>& architectures);
// The include line for the CMake file at `cmake_file` (relative to the repository root).
std::string HipMigrationInclude(const std::string& cmake_file);

}  // namespace hipforge::translate
