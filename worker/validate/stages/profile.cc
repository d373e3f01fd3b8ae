// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>

#include "worker/validate/profile.h"
#include "worker/validate/sandbox.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::Profile(State& state) {
  // The manifest's command, else the first test command; the profiler of the run build's toolchain.
  const Manifest& manifest = state.manifest;
  const Toolchain& toolchain = *state.run_build->toolchain;
  std::string profile_command = manifest.profile.command;
  if (profile_command.empty() && !manifest.tests.commands.empty()) profile_command = manifest.tests.commands[0].run;
  if (!options_.profile || !manifest.profile.enabled || profile_command.empty()) return absl::OkStatus();
  const fs::path bin = toolchain.hipcc.has_parent_path() ? toolchain.hipcc.parent_path() : fs::path();
  Profiler profiler = toolchain.rootfs.empty() ? FindProfiler(bin) : FindProfiler(toolchain.rootfs / bin.relative_path());
  if (profiler.kind == ProfilerKind::kNone) return absl::OkStatus();
  if (!toolchain.rootfs.empty()) profiler.program = bin / profiler.program.filename();  // as seen inside
  Progress(state.progress, "profile", profiler.program.string());
  const fs::path out_dir = state.work_dir / "profile";
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  auto argv = ProfilerCommand(profiler, out_dir, ShellCommand(ExpandVariables(profile_command, state.variables)));
  auto result = launcher_.Run(PrepareCommand(state.run_context, argv, state.run_build->build_dir, options_.test_timeout));
  auto csv_path = FindStatsCsv(profiler, out_dir);
  if (result.ok() && csv_path.ok()) {
    std::ifstream in(*csv_path);
    std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (auto parsed = ParseKernelStatsCsv(csv); parsed.ok()) state.report.profile = std::move(*parsed);
  } else {
    state.report.gpu.warnings.push_back("profiling produced no stats: " +
                                        std::string(csv_path.ok() ? result.status().message()
                                                                  : csv_path.status().message()));
  }
  const fs::path baseline = state.references_dir / (manifest.profile.cuda_baseline.empty()
                                                        ? "cuda_timings.csv" : manifest.profile.cuda_baseline);
  if (fs::exists(baseline)) {
    std::ifstream in(baseline);
    std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (auto parsed = ParseKernelStatsCsv(csv); parsed.ok()) AttachBaseline(state.report.profile, *parsed);
  }
  return absl::OkStatus();
}

}  // namespace hipforge::validate
