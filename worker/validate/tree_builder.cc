#include "worker/validate/tree_builder.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "worker/validate/resource_usage.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

constexpr const char* kRemarkFlag = "-Rpass-analysis=kernel-resource-usage";

// Diagnostics that never fail a build; their quoted source lines may say "error" (`cudaError_t error`).
bool IsQuietDiagnostic(const std::string& line) {
  // clang/gcc "f.cu:3:1: warning: ", nvcc "f.cu(3): warning #177-D: " and its "Remark: The warnings can be ...".
  static const std::regex kQuiet(R"(: (remark|warning|note): |\): (warning|remark) #\d+-D: |^Remark: )");
  return std::regex_search(line, kQuiet);
}

// The source line and caret a compiler prints under a diagnostic: "  250 | extern ...", "      |   ^~~".
bool IsQuotedSource(const std::string& line) {
  static const std::regex kQuoted(R"(^\s*\d*\s*\|( |$)|^\s*[\^~]+\s*$)");
  return std::regex_search(line, kQuoted);
}

}  // namespace

std::string WithoutScratchPaths(std::string text, const fs::path& source_dir, const fs::path& build_dir,
                                const std::string& tmp_dir) {
  const std::pair<std::string, std::string> replacements[] = {{source_dir.string() + "/", ""},
                                                              {source_dir.string(), "."},
                                                              {build_dir.string() + "/", "<build>/"},
                                                              {build_dir.string(), "<build>"},
                                                              {tmp_dir.empty() ? "" : tmp_dir + "/", "$TMPDIR/"}};
  for (const auto& [from, to] : replacements) {
    if (from.size() > 1) text = absl::StrReplaceAll(text, {{from, to}});
  }
  return text;
}

std::string BuildLogExcerpt(const std::string& output, size_t max_bytes) {
  static const std::regex kErrorLine(
      R"((\berror\b|\bError\b|FAILED|fatal|undefined reference|No such file|CMake Error|\*\*\*))");
  std::vector<std::string> lines = absl::StrSplit(output, '\n');
  std::vector<std::string> kept;
  // Lines after a remark, warning or note (its quoted source and caret) belong to it.
  std::vector<bool> remark(lines.size(), false);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!IsQuietDiagnostic(lines[i])) continue;
    remark[i] = true;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      const bool near_unlabelled = j <= i + 2 && lines[j].find(": ") == std::string::npos;
      if (!near_unlabelled && !IsQuotedSource(lines[j])) break;
      remark[j] = true;
    }
  }
  size_t next_context_end = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (remark[i]) continue;
    if (std::regex_search(lines[i], kErrorLine)) {
      kept.push_back(lines[i]);
      next_context_end = i + 3;
    } else if (i < next_context_end) {
      kept.push_back(lines[i]);
    }
  }
  if (kept.empty()) {
    // No error line: the output's tail says most about where it stopped.
    std::vector<std::string> tail;
    size_t bytes = 0;
    for (size_t i = lines.size(); i-- > 0;) {
      if (remark[i] || lines[i].empty()) continue;
      if (bytes + lines[i].size() + 1 > max_bytes) break;
      bytes += lines[i].size() + 1;
      tail.push_back(lines[i]);
    }
    kept.assign(tail.rbegin(), tail.rend());
  }
  std::string excerpt;
  for (const std::string& line : kept) {
    if (excerpt.size() + line.size() + 1 > max_bytes) {
      excerpt += "...\n";
      break;
    }
    absl::StrAppend(&excerpt, line, "\n");
  }
  return excerpt;
}

TreeBuilder::TreeBuilder(ProcessLauncher& launcher, BuildToolchain toolchain, const std::atomic<bool>* cancelled)
    : launcher_(launcher), toolchain_(std::move(toolchain)), cancelled_(cancelled) {
  // On the host, the build tools are the worker's: a bare name is looked up in the sandbox, in the build's PATH
  // (/usr/local/bin:/usr/bin:/bin), which lacks the GPU host's CMake (a Python virtual environment's). Unsandboxed,
  // the spawn searched the worker's PATH, so ggml built without bubblewrap and failed with it ("cannot run cmake").
  if (toolchain_.rootfs.empty()) {
    for (fs::path* tool : {&toolchain_.cmake, &toolchain_.make}) {
      if (tool->has_parent_path()) continue;
      if (fs::path found = FindProgram(tool->string()); !found.empty()) *tool = found;
    }
  }
}

BuildSystem TreeBuilder::DetectBuildSystem(const fs::path& source_dir, const Manifest* manifest) {
  if (manifest != nullptr && manifest->build.system != BuildSystem::kAuto) return manifest->build.system;
  return BuildSystemOfFiles(source_dir);
}

absl::StatusOr<std::vector<BuildRoot>> FindBuildRoots(const fs::path& source_dir, const Manifest* manifest,
                                                      size_t max_roots) {
  std::vector<BuildRoot> roots;
  if (manifest != nullptr && !manifest->build.roots.empty()) {
    for (const std::string& root : manifest->build.roots) {
      const fs::path relative = fs::path(root).lexically_normal();
      if (relative.is_absolute() || (!relative.empty() && *relative.begin() == "..")) {
        return absl::InvalidArgumentError(absl::StrCat("hipforge.yaml build.roots: ", root, " is not inside the tree"));
      }
      const BuildSystem system = TreeBuilder::DetectBuildSystem(source_dir / relative, manifest);
      if (system == BuildSystem::kAuto) {
        return absl::InvalidArgumentError(
            absl::StrCat("hipforge.yaml build.roots: ", root, " has no CMakeLists.txt or Makefile"));
      }
      roots.push_back({relative.empty() ? fs::path(".") : relative, system});
    }
    return roots;
  }
  if (manifest != nullptr && manifest->build.system != BuildSystem::kAuto) {
    return std::vector<BuildRoot>{{".", manifest->build.system}};
  }
  return BuildRootsOfFiles(source_dir, max_roots);
}

std::vector<TreeBuilder::Step> TreeBuilder::StepsFor(const BuildRoot& root, const BuildInput& input,
                                                     const fs::path& source, const fs::path& build,
                                                     const std::map<std::string, std::string>& variables) const {
  const std::string jobs = std::to_string(std::max(1, toolchain_.parallel_jobs));
  std::vector<Step> steps;
  switch (root.system) {
    case BuildSystem::kCMake: {
      const bool ninja =
          toolchain_.rootfs.empty() ? !build_path_ninja_.empty() : fs::exists(toolchain_.rootfs / "usr/bin/ninja");
      std::vector<std::string> configure = {
          toolchain_.cmake.string(),         "-S", source.string(), "-B", build.string(), "-G",
          ninja ? "Ninja" : "Unix Makefiles"};
      if (toolchain_.cuda_original) {
        // sm_90 -> 90: what CMAKE_CUDA_ARCHITECTURES takes.
        const std::string number = input.arch.rfind("sm_", 0) == 0 ? input.arch.substr(3) : input.arch;
        configure.insert(configure.end(), {"-DCMAKE_CUDA_COMPILER=" + toolchain_.hipcc.string(),
                                           "-DCMAKE_CUDA_ARCHITECTURES=" + number, "-DCMAKE_BUILD_TYPE=Release"});
      } else {
        configure.insert(
            configure.end(),
            {"-DCMAKE_CXX_COMPILER=" + toolchain_.hipcc.string(), "-DCMAKE_HIP_ARCHITECTURES=" + input.arch,
             "-DAMDGPU_TARGETS=" + input.arch, "-DGPU_TARGETS=" + input.arch,
             std::string("-DCMAKE_HIP_FLAGS=") + kRemarkFlag, "-DCMAKE_BUILD_TYPE=Release"});
        // C from hipcc's family too: projects choose C flags by the C++ compiler's id (ggml: clang-only
        // warnings given to `cc`, which is gcc in the toolchains). A user's own -DCMAKE_C_COMPILER comes later.
        if (!toolchain_.c_compiler.empty()) {
          configure.push_back("-DCMAKE_C_COMPILER=" + toolchain_.c_compiler.string());
        }
      }
      if (input.manifest) {
        for (const auto& arg : input.manifest->build.cmake_args) configure.push_back(ExpandVariables(arg, variables));
      }
      steps.push_back({"cmake configure", configure, build});
      // Keep going after the first error so the report lists every broken file.
      std::vector<std::string> build_step = {toolchain_.cmake.string(), "--build", build.string(), "-j", jobs, "--"};
      build_step.push_back(ninja ? "-k0" : "-k");
      steps.push_back({"cmake build", build_step, build});
      break;
    }
    case BuildSystem::kMake: {
      std::vector<std::string> make = {toolchain_.make.string(),
                                       "-k",
                                       "-j",
                                       jobs,
                                       (toolchain_.cuda_original ? "NVCC=" : "HIPCC=") + toolchain_.hipcc.string(),
                                       "ARCH=" + input.arch};
      if (input.manifest) {
        for (const auto& arg : input.manifest->build.make_args) make.push_back(ExpandVariables(arg, variables));
      }
      steps.push_back({"make", make, source});
      break;
    }
    case BuildSystem::kCommands:
      for (const std::string& command : input.manifest->build.commands) {
        steps.push_back({command, ShellCommand(ExpandVariables(command, variables)), source});
      }
      break;
    case BuildSystem::kAuto: break;
  }
  return steps;
}

// Runs one root's steps until one fails; its errors with paths made absolute (roots build in different directories).
TreeBuilder::RootRun TreeBuilder::RunSteps(const std::vector<Step>& steps, const ExecutionContext& context,
                                           std::chrono::steady_clock::time_point deadline) {
  RootRun run;
  run.ok = true;
  std::string output;
  for (const Step& step : steps) {
    if (cancelled_ != nullptr && cancelled_->load()) {
      run.ok = false;
      run.failure = absl::StrCat(step.name, ": cancelled");
      break;
    }
    const auto left =
        std::max(std::chrono::milliseconds(1000),
                 std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()));
    auto result = launcher_.Run(PrepareCommand(context, step.argv, step.cwd, left));
    absl::StrAppend(&run.log, "$ ", absl::StrJoin(step.argv, " "), "\n");
    if (!result.ok()) {
      run.ok = false;
      run.failure = absl::StrCat(step.name, ": ", result.status().message());
      run.log_excerpt = run.failure;
      break;
    }
    const std::string step_output = absl::StrCat(result->standard_output, result->standard_error);
    absl::StrAppend(&run.log, step_output);
    for (RawDiagnostic error : ParseBuildErrors(step_output)) {
      if (!error.path.empty() && fs::path(error.path).is_relative()) error.path = (step.cwd / error.path).string();
      run.errors.push_back(std::move(error));
    }
    if (result->timed_out || result->exit_code != 0) {
      run.ok = false;
      run.log_excerpt = BuildLogExcerpt(step_output);
      run.failure = result->timed_out ? absl::StrCat(step.name, " timed out")
                                      : absl::StrCat(step.name, " exited ", result->exit_code);
      break;
    }
  }
  return run;
}

BuildOutcome TreeBuilder::Build(const BuildInput& input, const ExecutionContext& base_context) {
  BuildOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  ExecutionContext context = base_context;
  // Ninja only when the build's own PATH has it (the worker's may have one the build does not see: the GPU host's
  // came from a Python virtual environment, and CMake then failed "unable to find ... Ninja").
  build_path_ninja_.clear();
  if (auto path = context.environment.find("PATH"); path != context.environment.end()) {
    for (absl::string_view dir : absl::StrSplit(path->second, ':', absl::SkipEmpty())) {
      const fs::path candidate = fs::path(std::string(dir)) / "ninja";
      if (::access(candidate.c_str(), X_OK) == 0) {
        build_path_ninja_ = candidate;
        break;
      }
    }
  } else {
    build_path_ninja_ = FindProgram("ninja");
  }
  if (!toolchain_.cuda_original) {
    context.environment["HIPCC_COMPILE_FLAGS_APPEND"] = absl::StrCat("--offload-arch=", input.arch, " ", kRemarkFlag);
    context.environment["HIP_PLATFORM"] = "amd";
  }
  std::error_code ec;
  fs::create_directories(input.build_dir, ec);
  const std::map<std::string, std::string> variables = {
      {"ARCH", input.arch},
      {"BUILD_DIR", input.build_dir.string()},
      {"SOURCE_DIR", input.source_dir.string()},
      {"HIPCC", toolchain_.hipcc.string()},
      {"JOBS", std::to_string(std::max(1, toolchain_.parallel_jobs))}};

  absl::StatusOr<std::vector<BuildRoot>> roots =
      DetectBuildSystem(input.source_dir, input.manifest) == BuildSystem::kCommands
          ? std::vector<BuildRoot>{{".", BuildSystem::kCommands}}
          : FindBuildRoots(input.source_dir, input.manifest);
  if (roots.ok() && toolchain_.cuda_original && !roots->empty() && roots->front().system == BuildSystem::kCommands) {
    roots = absl::FailedPreconditionError(
        "hipforge.yaml's build.commands build the HIP tree; the CUDA original is "
        "built only from its CMakeLists.txt or Makefiles");
  }
  if (roots.ok() && roots->empty()) {
    roots = absl::NotFoundError(
        "no CMakeLists.txt or Makefile anywhere in the tree and no build commands in "
        "hipforge.yaml (build.commands, or build.roots to pick directories)");
  }
  if (!roots.ok()) {
    outcome.failure = std::string(roots.status().message());
    outcome.log = outcome.log_excerpt = outcome.failure;
    return outcome;
  }
  outcome.system = roots->front().system;
  outcome.compiler_cwd = input.source_dir;  // error paths are absolute (RunSteps)
  outcome.ok = true;
  std::vector<std::string> failed;
  const bool single = roots->size() == 1;
  for (const BuildRoot& root : *roots) {
    const fs::path source = (input.source_dir / root.dir).lexically_normal();
    // One root builds in BUILD_DIR itself (ctest finds it there); several get a directory each.
    const fs::path build = single ? input.build_dir : (input.build_dir / root.dir).lexically_normal();
    fs::create_directories(build, ec);
    if (!single) absl::StrAppend(&outcome.log, "== build root ", root.dir.generic_string(), " ==\n");
    RootRun run = RunSteps(StepsFor(root, input, source, build, variables), context, start + input.timeout);
    absl::StrAppend(&outcome.log, run.log);
    outcome.errors.insert(outcome.errors.end(), run.errors.begin(), run.errors.end());
    if (!run.ok) {
      outcome.ok = false;
      failed.push_back(single ? run.failure : absl::StrCat(root.dir.generic_string(), ": ", run.failure));
      if (outcome.log_excerpt.size() < 4096) absl::StrAppend(&outcome.log_excerpt, run.log_excerpt);
    }
    if (cancelled_ != nullptr && cancelled_->load()) break;
  }
  if (!failed.empty()) {
    outcome.failure = single ? failed.front()
                             : absl::StrCat(failed.size(), " of ", roots->size(), " build roots failed (",
                                            absl::StrJoin(failed, "; "), ")");
  }
  outcome.roots = roots->size();
  outcome.built_roots = *roots;
  outcome.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  outcome.kernels = ParseKernelResourceRemarks(outcome.log);
  const auto tmp = context.environment.find("TMPDIR");
  outcome.log_excerpt = WithoutScratchPaths(std::move(outcome.log_excerpt), input.source_dir, input.build_dir,
                                            tmp == context.environment.end() ? "" : tmp->second);
  outcome.has_ctest =
      single && outcome.system == BuildSystem::kCMake && fs::exists(input.build_dir / "CTestTestfile.cmake");
  return outcome;
}

}  // namespace hipforge::validate
