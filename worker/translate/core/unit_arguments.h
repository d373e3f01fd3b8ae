#pragma once
// The Clang arguments for each translation unit: the CUDA front end's, then the unit's own include dirs and
// defines from the compile database (-p), or, without one, include dirs guessed from the tree and -D flags
// found in its build files.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/cuda_frontend.h"

namespace clang::tooling {
class CompilationDatabase;
}

namespace hipforge::translate {

class UnitArguments {
 public:
  static absl::StatusOr<UnitArguments> Create(const TranslateOptions& options, const CudaFrontend& frontend,
                                              const std::filesystem::path& root);
  UnitArguments(UnitArguments&&) noexcept;
  UnitArguments& operator=(UnitArguments&&) noexcept;
  ~UnitArguments();

  // Arguments for `file` (absolute), without the file itself.
  std::vector<std::string> For(const std::filesystem::path& file) const;
  // Directories searched for quoted/angled includes when no parse is available.
  const std::vector<std::filesystem::path>& include_dirs() const { return include_dirs_; }

 private:
  UnitArguments() = default;
  std::vector<std::string> base_;  // front end args + guessed flags
  std::vector<std::filesystem::path> include_dirs_;
  std::unique_ptr<clang::tooling::CompilationDatabase> database_;
};

// -D flags (NAME or NAME=VALUE) found in CMakeLists.txt / *.cmake / Makefiles under `root`.
std::vector<std::string> DefinesFromBuildFiles(const std::filesystem::path& root);
// Directories under `root` that look like include roots (include/, inc/, and the root itself).
std::vector<std::filesystem::path> GuessIncludeDirs(const std::filesystem::path& root);

}  // namespace hipforge::translate
