#pragma once
// Builds one copy of the translated tree for one offload arch: CMake, Makefile, or the manifest's
// commands, from each build root (FindBuildRoots: the top, or every top-most directory with a build
// file); a root that fails does not stop the others, and the outcome names each that failed. The arch and the resource
// remarks reach every hipcc invocation through HIPCC_COMPILE_FLAGS_APPEND (honoured by hipcc itself), so Makefiles need
// no cooperation; CMake projects additionally get CMAKE_HIP_ARCHITECTURES/AMDGPU_TARGETS/GPU_TARGETS.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/compiler_diagnostics.h"
#include "worker/validate/manifest.h"
#include "worker/validate/report.h"

namespace hipforge::validate {

struct BuildToolchain {
  std::filesystem::path hipcc = "hipcc";
  std::filesystem::path cmake = "cmake";
  std::filesystem::path make = "make";
  std::filesystem::path c_compiler;  // CMake's C compiler (ToolchainProbe::c_compiler); empty: CMake's choice
  std::string label;                 // goes into the report
  int parallel_jobs = 2;
  std::filesystem::path rootfs;  // the toolchain's root filesystem the steps run in; empty: the host
  // Builds the submitted CUDA tree (the automatic CUDA reference) instead of a HIP one: `hipcc` is then the nvcc
  // to use, CMake gets it as CMAKE_CUDA_COMPILER with CMAKE_CUDA_ARCHITECTURES, make gets NVCC= and ARCH=, and
  // nothing HIP-specific is set. Manifest build commands (written for the HIP tree) are refused.
  bool cuda_original = false;
};

struct BuildInput {
  std::filesystem::path source_dir;  // a private copy of the translated tree (Makefiles build in place)
  std::filesystem::path build_dir;   // out-of-tree build dir for CMake; ${BUILD_DIR} for commands
  std::string arch;
  const Manifest* manifest = nullptr;  // may be null
  std::chrono::milliseconds timeout{std::chrono::minutes(20)};
};

struct BuildOutcome {
  bool ok = false;
  BuildSystem system = BuildSystem::kAuto;  // what was actually used
  int64_t duration_ms = 0;
  std::string log;  // combined output of every step
  std::vector<RawDiagnostic> errors;
  std::vector<KernelResources> kernels;
  std::string failure;      // the step that failed, e.g. "cmake configure exited 1"
  std::string log_excerpt;  // failed builds: the failing step's error lines (BuildLogExcerpt)
  bool has_ctest = false;
  std::filesystem::path compiler_cwd;  // where relative paths in the log are rooted
  size_t roots = 0;                    // build roots built (FindBuildRoots)
  std::vector<BuildRoot> built_roots;
};

// Where a user's build starts: hipforge.yaml's build.roots when given; else the top of the tree when the
// manifest names a build system; else BuildRootsOfFiles (worker/userbuild/build_roots.h). InvalidArgument for a
// build.roots entry outside the tree or without a build file.
absl::StatusOr<std::vector<BuildRoot>> FindBuildRoots(const std::filesystem::path& source_dir, const Manifest* manifest,
                                                      size_t max_roots = 64);

// What a person needs from a failed step's output, at most `max_bytes`: the lines that report errors
// (compiler, linker, CMake, make/ninja) with the two lines after each, else the output's tail.
// Kernel-resource remarks (every kernel, every arch) are left out: they bury the error.
std::string BuildLogExcerpt(const std::string& output, size_t max_bytes = 4096);

// `text` with the worker's scratch paths replaced: files of the tree become repository-relative, the build
// directory `<build>`, the job's TMPDIR `$TMPDIR` (a report showed /tmp/hipforge-worker/<task>/work/...).
std::string WithoutScratchPaths(std::string text, const std::filesystem::path& source_dir,
                                const std::filesystem::path& build_dir, const std::string& tmp_dir);

class TreeBuilder {
 public:
  // `cancelled` (may be null): checked between steps; a set flag ends the build as failed ("cancelled").
  TreeBuilder(ProcessLauncher& launcher, BuildToolchain toolchain, const std::atomic<bool>* cancelled = nullptr);
  // `context` carries the job's environment and sandbox; HIPCC_* variables are added here.
  BuildOutcome Build(const BuildInput& input, const ExecutionContext& context);

  // Detected from the tree when the manifest says auto (or there is no manifest).
  static BuildSystem DetectBuildSystem(const std::filesystem::path& source_dir, const Manifest* manifest);

 private:
  struct Step {
    std::string name;
    std::vector<std::string> argv;
    std::filesystem::path cwd;
  };
  struct RootRun {
    bool ok = false;
    std::string log, failure, log_excerpt;
    std::vector<RawDiagnostic> errors;
  };
  std::vector<Step> StepsFor(const BuildRoot& root, const BuildInput& input, const std::filesystem::path& source,
                             const std::filesystem::path& build,
                             const std::map<std::string, std::string>& variables) const;
  RootRun RunSteps(const std::vector<Step>& steps, const ExecutionContext& context,
                   std::chrono::steady_clock::time_point deadline);

  ProcessLauncher& launcher_;
  BuildToolchain toolchain_;
  std::filesystem::path build_path_ninja_;  // ninja as the build's PATH finds it; empty: Unix Makefiles
  const std::atomic<bool>* cancelled_;
};

}  // namespace hipforge::validate
