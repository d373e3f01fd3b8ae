#include "worker/validate/tree_builder.h"

#include <regex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "worker/validate/resource_usage.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

constexpr const char* kRemarkFlag = "-Rpass-analysis=kernel-resource-usage";

struct Step {
  std::string name;
  std::vector<std::string> argv;
  fs::path cwd;
};

bool IsRemarkLine(const std::string& line) { return line.find(": remark: ") != std::string::npos; }

}  // namespace

std::string BuildLogExcerpt(const std::string& output, size_t max_bytes) {
  static const std::regex kErrorLine(
      R"((\berror\b|\bError\b|FAILED|fatal|undefined reference|No such file|CMake Error|\*\*\*))");
  std::vector<std::string> lines = absl::StrSplit(output, '\n');
  std::vector<std::string> kept;
  // Lines after a remark (its source line and caret) belong to the remark.
  std::vector<bool> remark(lines.size(), false);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!IsRemarkLine(lines[i])) continue;
    remark[i] = true;
    for (size_t j = i + 1; j < lines.size() && j <= i + 2 && lines[j].find(": ") == std::string::npos; ++j) {
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
    : launcher_(launcher), toolchain_(std::move(toolchain)), cancelled_(cancelled) {}

BuildSystem TreeBuilder::DetectBuildSystem(const fs::path& source_dir, const Manifest* manifest) {
  if (manifest != nullptr && manifest->build.system != BuildSystem::kAuto) return manifest->build.system;
  if (fs::exists(source_dir / "CMakeLists.txt")) return BuildSystem::kCMake;
  for (const char* name : {"Makefile", "makefile", "GNUmakefile"}) {
    if (fs::exists(source_dir / name)) return BuildSystem::kMake;
  }
  return BuildSystem::kAuto;  // nothing to build with
}

BuildOutcome TreeBuilder::Build(const BuildInput& input, const ExecutionContext& base_context) {
  BuildOutcome outcome;
  const auto start = std::chrono::steady_clock::now();
  outcome.system = DetectBuildSystem(input.source_dir, input.manifest);

  ExecutionContext context = base_context;
  const std::string arch_flags = absl::StrCat("--offload-arch=", input.arch, " ", kRemarkFlag);
  context.environment["HIPCC_COMPILE_FLAGS_APPEND"] = arch_flags;
  context.environment["HIP_PLATFORM"] = "amd";
  std::error_code ec;
  fs::create_directories(input.build_dir, ec);

  const std::string jobs = std::to_string(std::max(1, toolchain_.parallel_jobs));
  const std::map<std::string, std::string> variables = {{"ARCH", input.arch},
                                                        {"BUILD_DIR", input.build_dir.string()},
                                                        {"SOURCE_DIR", input.source_dir.string()},
                                                        {"HIPCC", toolchain_.hipcc.string()},
                                                        {"JOBS", jobs}};
  std::vector<Step> steps;
  switch (outcome.system) {
    case BuildSystem::kCMake: {
      const bool ninja = toolchain_.rootfs.empty() ? !FindProgram("ninja").empty()
                                                   : fs::exists(toolchain_.rootfs / "usr/bin/ninja");
      std::vector<std::string> configure = {toolchain_.cmake.string(), "-S", input.source_dir.string(), "-B",
                                            input.build_dir.string(), "-G", ninja ? "Ninja" : "Unix Makefiles",
                                            "-DCMAKE_CXX_COMPILER=" + toolchain_.hipcc.string(),
                                            "-DCMAKE_HIP_ARCHITECTURES=" + input.arch,
                                            "-DAMDGPU_TARGETS=" + input.arch, "-DGPU_TARGETS=" + input.arch,
                                            std::string("-DCMAKE_HIP_FLAGS=") + kRemarkFlag,
                                            "-DCMAKE_BUILD_TYPE=Release"};
      if (input.manifest) {
        for (const auto& arg : input.manifest->build.cmake_args) configure.push_back(ExpandVariables(arg, variables));
      }
      steps.push_back({"cmake configure", configure, input.build_dir});
      // Keep going after the first error so the report lists every broken file.
      std::vector<std::string> build = {toolchain_.cmake.string(), "--build", input.build_dir.string(), "-j", jobs,
                                        "--"};
      build.push_back(ninja ? "-k0" : "-k");
      steps.push_back({"cmake build", build, input.build_dir});
      break;
    }
    case BuildSystem::kMake: {
      std::vector<std::string> make = {toolchain_.make.string(), "-k", "-j", jobs,
                                       "HIPCC=" + toolchain_.hipcc.string(), "ARCH=" + input.arch};
      if (input.manifest) {
        for (const auto& arg : input.manifest->build.make_args) make.push_back(ExpandVariables(arg, variables));
      }
      steps.push_back({"make", make, input.source_dir});
      break;
    }
    case BuildSystem::kCommands:
      for (const std::string& command : input.manifest->build.commands) {
        steps.push_back({command, ShellCommand(ExpandVariables(command, variables)), input.source_dir});
      }
      break;
    case BuildSystem::kAuto:
      outcome.failure = "no CMakeLists.txt or Makefile in the tree and no build commands in hipforge.yaml";
      outcome.log = outcome.failure;
      outcome.log_excerpt = outcome.failure;
      return outcome;
  }

  outcome.ok = true;
  outcome.compiler_cwd = steps.empty() ? input.source_dir : steps.back().cwd;
  for (const Step& step : steps) {
    if (cancelled_ != nullptr && cancelled_->load()) {
      outcome.ok = false;
      outcome.failure = absl::StrCat(step.name, ": cancelled");
      break;
    }
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    const auto left = std::max(std::chrono::milliseconds(1000), input.timeout - elapsed);
    auto result = launcher_.Run(PrepareCommand(context, step.argv, step.cwd, left));
    absl::StrAppend(&outcome.log, "$ ", absl::StrJoin(step.argv, " "), "\n");
    if (!result.ok()) {
      outcome.ok = false;
      outcome.failure = absl::StrCat(step.name, ": ", result.status().message());
      outcome.log_excerpt = outcome.failure;
      break;
    }
    absl::StrAppend(&outcome.log, result->standard_output, result->standard_error);
    if (result->timed_out || result->exit_code != 0) {
      outcome.ok = false;
      outcome.log_excerpt = BuildLogExcerpt(absl::StrCat(result->standard_output, result->standard_error));
      outcome.failure = result->timed_out ? absl::StrCat(step.name, " timed out")
                                          : absl::StrCat(step.name, " exited ", result->exit_code);
      break;
    }
  }
  outcome.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  outcome.errors = ParseBuildErrors(outcome.log);
  outcome.kernels = ParseKernelResourceRemarks(outcome.log);
  outcome.has_ctest = outcome.system == BuildSystem::kCMake && fs::exists(input.build_dir / "CTestTestfile.cmake");
  return outcome;
}

}  // namespace hipforge::validate
