#pragma once
// Builds the Clang 16 command line that parses CUDA sources (CUDA 11.x-13.x headers, or none).
// Shared by the translator and the analyzer so both see the same AST.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::translate {

struct CudaFrontendOptions {
  std::optional<std::filesystem::path> cuda_path;         // unset: $CUDA_PATH, then /usr/local/cuda
  std::optional<std::filesystem::path> clang_resource_dir; // unset: LLVM 16's own
  std::filesystem::path shim_directory;                    // where compatibility headers are written
  std::string gpu_arch = "sm_70";
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> defines;  // "NAME" or "NAME=VALUE"
  std::vector<std::string> extra_args;  // appended last (user's Clang arguments after `--`)
};

class CudaFrontend {
 public:
  // Writes the shim headers and detects the toolkit. Fails only if the shim directory is unwritable.
  static absl::StatusOr<CudaFrontend> Create(CudaFrontendOptions options);

  // Full argument list for clang::tooling (without the program name and without the file).
  std::vector<std::string> ClangArgs() const;

  // The detected toolkit root, if any.
  const std::optional<std::filesystem::path>& cuda_path() const { return cuda_path_; }
  const CudaFrontendOptions& options() const { return options_; }

 private:
  CudaFrontend(CudaFrontendOptions options, std::optional<std::filesystem::path> cuda_path)
      : options_(std::move(options)), cuda_path_(std::move(cuda_path)) {}
  CudaFrontendOptions options_;
  std::optional<std::filesystem::path> cuda_path_;
};

}  // namespace hipforge::translate
