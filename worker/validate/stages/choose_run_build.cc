// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::ChooseRunBuild(State& state) {
  // The build of the leased GPU's own arch; a stand-in build of that arch only when there is no other.
  const ArchBuild* run_build = nullptr;
  if (state.lease) {
    const std::string& device_arch = state.lease->device().arch;
    for (const ArchBuild& b : state.builds) {
      if (b.result.ok && b.result.arch == device_arch && b.result.requested_arch == b.result.arch) {
        run_build = &b;
        break;
      }
    }
    if (run_build == nullptr) {
      for (const ArchBuild& b : state.builds) {
        if (b.result.ok && b.result.arch == device_arch) run_build = &b;
      }
    }
    // Only a build of the GPU with a feature (sm_90:wave64): tests run from it.
    for (const ArchBuild& b : state.builds) {
      if (run_build == nullptr && b.result.ok && TargetProcessor(b.result.arch) == device_arch) {
        run_build = &b;
      }
    }
  }
  if (!state.lease || run_build == nullptr) {
    // Nothing runs: every test and parity case says not_run/missing with the reason, never passed.
    const std::string why = state.report.gpu.note.empty() ? kNoGpuNote : state.report.gpu.note;
    ListTestsNotRun(state, why);
    for (const ParityCase& c : state.manifest.parity) state.report.parity.push_back(Missing(c.name, why));
    state.report.gpu.ran_on_gpu = false;
    state.finished = true;
    return absl::OkStatus();
  }

  std::vector<std::string> warnings;
  RunPlan& plan = state.run.emplace();
  plan.build = run_build;
  plan.context = RunContext(state, *run_build, &warnings);
  for (const std::string& warning : warnings) state.report.gpu.warnings.push_back(warning);
  plan.variables = {{"ARCH", run_build->result.arch},
                    {"BUILD_DIR", run_build->build_dir.string()},
                    {"SOURCE_DIR", run_build->source_dir.string()}};
  return absl::OkStatus();
}

ExecutionContext Validator::RunContext(const State& state, const ArchBuild& build,
                                       std::vector<std::string>* warnings) const {
  // The leased GPU's environment (device isolation, HSA/CUDA settings), inside the build's toolchain.
  const GpuDevice& device = state.lease->device();
  const Toolchain& toolchain = *build.toolchain;
  JobEnvironmentInput env_input{.device = &device,
                                .visibility = options_.visibility,
                                .requested = state.manifest.env,
                                .managed_memory = state.request.managed_memory_found || state.manifest.managed_memory,
                                .work_dir = state.work_dir};
  if (toolchain.hipcc.has_parent_path()) env_input.path_prefix.push_back(toolchain.hipcc.parent_path());
  JobEnvironment env = BuildJobEnvironment(env_input);
  if (warnings != nullptr) *warnings = env.warnings;
  ExecutionContext context{.environment = env.variables, .cancelled = state.request.cancelled};
  if (state.sandbox_ok) {
    // An NVIDIA GPU (HIP's NVIDIA platform) is reached through its /dev/nvidia* nodes, an AMD one through KFD.
    const bool nvidia = absl::StartsWith(device.arch, "sm_");
    context.sandbox =
        SandboxSpec{.work_dir = state.work_dir,
                    .root = toolchain.rootfs,
                    .read_only_paths = toolchain.sandbox_paths,
                    .devices = nvidia ? NvidiaDeviceNodes(device.hip_index) : AmdDeviceNodes(device.render_node),
                    .expose_sysfs = true};
  }
  return context;
}

void Validator::ListTestsNotRun(State& state, const std::string& why) {
  TestRunner runner(launcher_);
  for (const ArchBuild& b : state.builds) {
    auto not_run = [&](const std::string& name, const std::string& detail) {
      state.report.tests.push_back(
          {.name = name, .arch = b.result.arch, .status = TestStatus::kNotRun, .output_excerpt = detail});
    };
    for (const TestCommand& t : state.manifest.tests.commands) not_run(t.name, why);
    if (state.manifest.tests.commands.empty() && !RunsCTest(&state.manifest, b.has_ctest)) {
      for (const TestCommand& t : DiscoveredTests(b.source_dir, b.roots, b.result.arch, b.toolchain->hipcc)) {
        not_run(t.name, why);
      }
    }
    // CTest tests are known only to a configured build dir: ask ctest there, inside the build's toolchain.
    if (!b.result.ok || b.build_dir.empty() || !RunsCTest(&state.manifest, b.has_ctest)) continue;
    auto names = runner.ListCTest({.arch = b.result.arch, .source_dir = b.source_dir, .build_dir = b.build_dir},
                                  BuildContext(state, *b.toolchain));
    if (!names.ok()) {
      not_run("ctest", absl::StrCat(why, "; its tests could not be listed: ", names.status().message()));
      continue;
    }
    for (const std::string& name : *names) not_run(name, why);
  }
}

}  // namespace hipforge::validate
