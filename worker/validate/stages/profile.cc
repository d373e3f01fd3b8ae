// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/profile.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

std::string ReadText(const fs::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// What is profiled: the manifest's profile command, else its first test command, else the first test the build
// files name (`make run`), else the build's ctest tests.
std::string ProfileCommand(const Manifest& manifest, const std::vector<TestCommand>& discovered, bool ctest) {
  if (!manifest.profile.command.empty()) return manifest.profile.command;
  if (!manifest.tests.commands.empty()) return manifest.tests.commands[0].run;
  if (!discovered.empty() && !RunsCTest(&manifest, ctest)) return discovered[0].run;
  return RunsCTest(&manifest, ctest) ? "ctest --test-dir '${BUILD_DIR}'" : "";
}

}  // namespace

absl::Status Validator::Profile(State& state) {
  // The HIP build and, on NVIDIA, the CUDA reference build, each with the same command and profiler: per-kernel
  // times paired by kernel name.
  const Manifest& manifest = state.manifest;
  const ArchBuild& run_build = *state.run->build;
  const Toolchain& toolchain = *run_build.toolchain;
  const std::string command = ProfileCommand(
      manifest, DiscoveredTests(run_build.source_dir, run_build.roots, run_build.result.arch, toolchain.hipcc),
      run_build.has_ctest);
  if (!options_.profile || !manifest.profile.enabled || command.empty()) return absl::OkStatus();
  state.report.profile =
      ProfileRun(state, toolchain, command, {run_build.build_dir, state.run->context, state.run->variables}, "hip");
  if (state.cuda != nullptr && state.cuda->built) {
    const std::string cuda_command =
        ProfileCommand(manifest, state.cuda->tests.discovered, state.cuda->tests.use_ctest);
    std::vector<KernelProfile> cuda = ProfileRun(
        state, toolchain, cuda_command, {state.cuda->build_dir, state.cuda->context, state.cuda->variables}, "cuda");
    if (!cuda.empty()) AttachBaseline(state.report.profile, cuda);
    return absl::OkStatus();
  }
  const fs::path baseline =
      state.references_dir /
      (manifest.profile.cuda_baseline.empty() ? "cuda_timings.csv" : manifest.profile.cuda_baseline);
  if (fs::exists(baseline)) {
    if (auto parsed = ParseKernelStatsCsv(ReadText(baseline)); parsed.ok())
      AttachBaseline(state.report.profile, *parsed);
  }
  return absl::OkStatus();
}

std::vector<KernelProfile> Validator::ProfileRun(State& state, const Toolchain& toolchain, const std::string& command,
                                                 const RunPlace& place, const std::string& side) {
  // ncu on an NVIDIA GPU; rocprofv3/rocprof of the toolchain on an AMD one.
  const bool nvidia = state.lease && absl::StartsWith(state.lease->device().arch, "sm_");
  const fs::path bin = toolchain.hipcc.has_parent_path() ? toolchain.hipcc.parent_path() : fs::path();
  Profiler profiler;
  if (nvidia) {
    profiler = options_.ncu.empty() ? FindNcu({}) : Profiler{ProfilerKind::kNcu, options_.ncu};
  } else {
    profiler = toolchain.rootfs.empty() ? FindProfiler(bin) : FindProfiler(toolchain.rootfs / bin.relative_path());
    if (profiler.kind != ProfilerKind::kNone && !toolchain.rootfs.empty()) {
      profiler.program = bin / profiler.program.filename();  // as seen inside
    }
  }
  if (profiler.kind == ProfilerKind::kNone) return {};
  Progress(state.progress, "profile", absl::StrCat(side, ": ", profiler.program.string()));
  const fs::path out_dir = state.work_dir / ("profile-" + side);
  std::error_code ec;
  fs::remove_all(out_dir, ec);
  fs::create_directories(out_dir, ec);
  auto argv = ProfilerCommand(profiler, out_dir, ShellCommand(ExpandVariables(command, place.variables)));
  auto result = launcher_.Run(PrepareCommand(place.context, argv, place.build_dir, options_.test_timeout));
  absl::StatusOr<fs::path> csv_path = FindStatsCsv(profiler, out_dir);
  absl::StatusOr<std::vector<KernelProfile>> parsed =
      !result.ok()     ? absl::StatusOr<std::vector<KernelProfile>>(result.status())
      : !csv_path.ok() ? absl::StatusOr<std::vector<KernelProfile>>(csv_path.status())
                       : ParseKernelStatsCsv(ReadText(*csv_path));
  if (!parsed.ok() || parsed->empty()) {
    state.report.gpu.warnings.push_back(absl::StrCat(
        "profiling (", side,
        ") produced no kernel times: ", parsed.ok() ? "no kernel was profiled" : std::string(parsed.status().message()),
        result.ok() && result->exit_code != 0 ? absl::StrCat(" (exit ", result->exit_code, ")") : ""));
    return {};
  }
  return std::move(*parsed);
}

}  // namespace hipforge::validate
