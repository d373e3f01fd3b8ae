#pragma once
// Build-aware translation: per-unit compile commands from the repository's own build, when the tree has no
// compile_commands.json. A CMake project is configured once with CMAKE_EXPORT_COMPILE_COMMANDS (nvcc of the
// local CUDA toolkit as its CUDA compiler, and its own `option(...CUDA...)` switches on so the CUDA targets
// exist); a Makefile project is dry-run (`make -n`). Both are user code: they run under bubblewrap on a copy of
// the tree (no network, the system read-only, nothing of the input writable), with a time limit; without a
// working sandbox nothing runs. What comes out is data like any compile_commands.json: the translator
// allow-lists it (frontend/compile_arguments.h).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/process.h"
#include "nlohmann/json.hpp"
#include "worker/userbuild/sandbox.h"

namespace hipforge::translate {

struct BuildDiscoveryOptions {
  std::filesystem::path scratch;  // writable, outside the input; holds the copy and the build dir
  std::filesystem::path cuda_path = "/usr/local/cuda";
  std::chrono::seconds timeout{180};
  std::filesystem::path bwrap = validate::DefaultBwrap();
  std::filesystem::path prlimit = "/usr/bin/prlimit";
  std::vector<std::string> cmake_options;  // extra -DNAME=VALUE (hipforge.yaml), after the CUDA switches
  // Where CMake's compiler checks are kept across jobs (cmake_compiler_checks.h); empty: each configure runs them.
  std::filesystem::path compiler_checks_directory;
};

struct BuildDiscovery {
  std::optional<std::filesystem::path> compile_commands;  // paths in it are the input tree's
  std::string tool;                                       // "cmake" or "make -n"; empty: none ran
  std::vector<std::string> notes;                         // what ran and how it went, for the report
};

BuildDiscovery DiscoverBuildCommands(ProcessLauncher& launcher, const std::filesystem::path& input,
                                     const BuildDiscoveryOptions& options);

// `option(NAME "..." OFF)` switches in CMake files whose name ends in CUDA, CUBLAS or CUDNN (GGML_CUDA,
// USE_CUDA, WITH_CUBLAS): the ones that turn CUDA targets on, not their variants (GGML_CUDA_FORCE_MMQ).
std::vector<std::string> CudaOptionsInCMake(const std::string& cmake_text);

// Compile commands in the output of `make -n -w` run in `directory`: every compiler line (nvcc, gcc/g++,
// cc/c++, clang/clang++) with a C/C++/CUDA source, in the directory make said it entered (and after `cd x &&`).
nlohmann::json CompileCommandsFromMakeDryRun(const std::string& output, const std::filesystem::path& directory);

}  // namespace hipforge::translate
