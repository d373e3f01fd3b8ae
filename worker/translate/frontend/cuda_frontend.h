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
  std::optional<std::filesystem::path> cuda_path;           // unset: $CUDA_PATH, then /usr/local/cuda
  std::optional<std::filesystem::path> clang_resource_dir;  // unset: LLVM 16's own
  std::filesystem::path shim_directory;                     // where compatibility headers are written
  std::string gpu_arch = "sm_70";
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> defines;     // "NAME" or "NAME=VALUE"
  std::vector<std::string> extra_args;  // appended last (the local user's own Clang arguments: trusted)
  // Arguments from data (JobOptions.extra_clang_args): allow-listed against the tree before each parse
  // (compile_arguments.h), never passed as they are.
  std::vector<std::string> untrusted_args;
  // Parses may read only the tree, the toolkit, Clang's resource dir, the shims, system headers and the
  // include_dirs above (confined_file_system.h): a hostile #include of a host file reads as missing.
  bool confine_to_tree = false;
};

class CudaFrontend {
 public:
  // Writes the shim headers and detects the toolkit. Fails only if the shim directory is unwritable.
  static absl::StatusOr<CudaFrontend> Create(CudaFrontendOptions options);

  // Full argument list for clang::tooling (without the program name and without the file).
  std::vector<std::string> ClangArgs() const;
  // The same without the local user's include dirs, defines and extra args (reported per unit apart).
  std::vector<std::string> BaseClangArgs() const;

  // What a confined parse of `tree_root` may read (empty when not confined); `extra` (the PCH directory, ...)
  // is added.
  std::vector<std::string> ReadableRoots(const std::filesystem::path& tree_root,
                                         const std::vector<std::filesystem::path>& extra = {}) const;

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
