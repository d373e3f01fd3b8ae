#include "worker/validate/validator.h"

#include <fstream>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spdlog/spdlog.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/compiler_diagnostics.h"
#include "worker/validate/manifest.h"
#include "worker/validate/parity.h"
#include "worker/validate/profile.h"
#include "worker/validate/source_map.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/toolchain_choice.h"
#include "worker/validate/tree_builder.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

constexpr const char* kNoGpuNote = "not run on a GPU: compile-only worker";

void Progress(ProgressSink* sink, std::string_view stage, const std::string& message) {
  spdlog::info("[validate:{}] {}", stage, message);
  if (sink != nullptr) sink->Report(stage, message);
}

absl::Status CopyTree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return absl::InternalError(absl::StrCat("copying ", from.string(), " to ", to.string(), ": ", ec.message()));
  return absl::OkStatus();
}


bool Cancelled(const ValidationRequest& request) {
  return request.cancelled != nullptr && request.cancelled->load();
}

ParityResult Missing(const std::string& name, const std::string& why) {
  return {.case_name = name, .verdict = ParityVerdict::kMissing, .detail = why};
}

}  // namespace

struct Validator::ArchBuild {
  const Toolchain* toolchain = nullptr;  // points into Validator::State::toolchains
  BuildResult result;
  fs::path source_dir;
  fs::path build_dir;
  bool has_ctest = false;
};

Validator::Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases,
                     ValidatorOptions options)
    : launcher_(launcher), inventory_(inventory), leases_(leases), options_(std::move(options)) {}

// Everything one validation knows; each stage reads what earlier stages left and adds its part.
struct Validator::State {
  const ValidationRequest& request;
  ProgressSink* progress = nullptr;
  fs::path work_dir;
  Manifest manifest;
  fs::path references_dir;  // CUDA reference outputs (parity goldens, baseline timings)
  std::vector<std::string> archs;  // requested, in order
  bool sandbox_ok = false;
  std::vector<Toolchain> toolchains;  // candidates, newest first
  std::vector<LibraryUse> needed_libraries;
  std::vector<ArchBuild> builds;  // one per requested arch
  std::set<std::string> built_archs;
  std::unique_ptr<GpuLease> lease;
  const ArchBuild* run_build = nullptr;  // the build tests run from
  ExecutionContext run_context;           // its toolchain, the leased GPU's environment and devices
  std::map<std::string, std::string> variables;  // ${ARCH}, ${BUILD_DIR}, ${SOURCE_DIR} of run_build
  ValidationReport report;
  bool finished = false;  // a stage completed the report early (nothing runs on a GPU)
};

absl::StatusOr<ValidationReport> Validator::Validate(const ValidationRequest& request, ProgressSink* progress) {
  using Stage = absl::Status (Validator::*)(State&);
  static constexpr Stage kStages[] = {&Validator::LoadInputs, &Validator::CheckSandbox, &Validator::SelectToolchains,
                                      &Validator::BuildArchs, &Validator::LeaseGpu,     &Validator::ChooseRunBuild,
                                      &Validator::RunTests,   &Validator::CheckParity,  &Validator::Profile};
  State state{.request = request, .progress = progress};
  for (Stage stage : kStages) {
    if (Cancelled(request)) return absl::CancelledError("validation stopped: the job was cancelled");
    if (absl::Status status = (this->*stage)(state); !status.ok()) return status;
    if (state.finished) break;
  }
  if (Cancelled(request)) return absl::CancelledError("validation stopped: the job was cancelled");
  return std::move(state.report);
}

absl::Status Validator::LoadInputs(State& state) {
  const ValidationRequest& request = state.request;
  if (!fs::is_directory(request.translated_tree)) {
    return absl::InvalidArgumentError("translated tree not found: " + request.translated_tree.string());
  }
  if (request.work_dir.empty()) return absl::InvalidArgumentError("work_dir is required");
  std::error_code ec;
  state.work_dir = fs::absolute(request.work_dir);
  fs::create_directories(state.work_dir / "tmp", ec);

  const fs::path manifest_path = !request.manifest.empty() ? request.manifest
                                                           : request.translated_tree / "hipforge.yaml";
  if (fs::exists(manifest_path)) {
    auto loaded = LoadManifest(manifest_path);
    if (!loaded.ok()) return loaded.status();
    state.manifest = std::move(*loaded);
  } else if (!request.manifest.empty()) {
    return absl::NotFoundError("manifest not found: " + request.manifest.string());
  }
  // CUDA references: the explicit dir, else the manifest's directory in the repository.
  state.references_dir = request.references_dir;
  if (state.references_dir.empty()) {
    const fs::path repository = !request.original_tree.empty() ? request.original_tree : request.translated_tree;
    state.references_dir =
        state.manifest.references.empty() ? repository : repository / state.manifest.references;
  }
  state.archs = request.requested_archs;
  if (state.archs.empty()) state.archs = state.manifest.targets;
  if (state.archs.empty()) state.archs = {"gfx90a"};
  return absl::OkStatus();
}

absl::Status Validator::CheckSandbox(State& state) {
  state.sandbox_ok = options_.use_sandbox && ProbeSandbox(launcher_, "/usr/bin/bwrap").ok();
  if (options_.use_sandbox && !state.sandbox_ok) {
    state.report.gpu.warnings.push_back("bubblewrap unavailable here: user commands ran without a sandbox");
  }
  return absl::OkStatus();
}

absl::Status Validator::SelectToolchains(State& state) {
  state.needed_libraries = FindLibraryUses(state.request.translated_tree);
  for (const Toolchain& toolchain : options_.toolchains) {
    // A root filesystem is only entered through bubblewrap.
    if (toolchain.rootfs.empty() || state.sandbox_ok) state.toolchains.push_back(toolchain);
  }
  if (!state.toolchains.empty()) return absl::OkStatus();
  // No probed toolchain: the host's hipcc, with the archs the inventory reports for it.
  Toolchain host{.name = "host", .hipcc = options_.hipcc, .description = inventory_.ToolchainName()};
  if (auto targets = inventory_.CompileTargets(); targets.ok()) {
    host.probe.offload_archs = *targets;
  } else {
    state.report.gpu.warnings.push_back(absl::StrCat("toolchain targets unknown: ", targets.status().message()));
  }
  state.toolchains.push_back(std::move(host));
  return absl::OkStatus();
}

absl::Status Validator::BuildArchs(State& state) {
  const ValidationRequest& request = state.request;
  for (const std::string& requested : state.archs) {
    if (Cancelled(request)) return absl::OkStatus();
    ToolchainChoice choice = ChooseToolchain(requested, request.hip_release, state.needed_libraries, state.toolchains);
    ArchBuild build;
    build.toolchain = choice.toolchain;
    build.result.requested_arch = requested;
    build.result.toolchain = choice.toolchain->Describe();
    build.result.arch = choice.arch.arch;
    if (choice.arch.arch.empty() && choice.toolchain->probe.offload_archs.empty()) {
      build.result.arch = requested;  // targets unknown: try what was asked for
    }
    build.result.note = absl::StrJoin({choice.arch.note, choice.note}, choice.arch.note.empty() || choice.note.empty()
                                                                           ? "" : "; ");
    if (!choice.missing.empty()) {
      // A library no toolchain has: say which and where, instead of a compiler's "file not found".
      for (const LibraryUse& use : choice.missing) {
        build.result.errors.push_back({.path = use.file.string(), .line = use.line,
                                       .message = MissingLibraryMessage(use, state.toolchains)});
      }
      build.result.log_excerpt = build.result.errors.front().message;
      Progress(state.progress, "build", absl::StrCat(requested, " not built: ", build.result.log_excerpt));
      state.builds.push_back(std::move(build));
      continue;
    }
    const std::string& arch = build.result.arch;
    const ArchBuild* earlier = nullptr;
    for (const ArchBuild& b : state.builds) {
      if (!arch.empty() && b.result.arch == arch && b.toolchain == build.toolchain) earlier = &b;
    }
    if (arch.empty() || earlier != nullptr) {
      if (earlier != nullptr) {
        // Two requests map to the same target: report the first build's outcome for this one too.
        const std::string note = build.result.note;
        build.result = earlier->result;
        build.result.requested_arch = requested;
        build.result.note = note;
      }
      state.builds.push_back(std::move(build));
      continue;
    }
    BuildOne(state, build);
    if (Cancelled(request)) return absl::OkStatus();
    if (build.result.ok) state.built_archs.insert(arch);
    state.builds.push_back(std::move(build));
  }
  for (const ArchBuild& b : state.builds) state.report.builds.push_back(b.result);
  return absl::OkStatus();
}

void Validator::BuildOne(State& state, ArchBuild& build) {
  const ValidationRequest& request = state.request;
  const Toolchain& toolchain = *build.toolchain;
  const std::string& arch = build.result.arch;
  // Per toolchain and arch: the same arch may be built by two toolchains for two requests.
  const fs::path arch_dir = state.work_dir / (state.toolchains.size() > 1 ? toolchain.name + "-" + arch : arch);
  build.source_dir = arch_dir / "src";
  build.build_dir = arch_dir / "build";
  if (auto copied = CopyTree(request.translated_tree, build.source_dir); !copied.ok()) {
    build.result.errors.push_back({.message = std::string(copied.message())});
    return;
  }
  Progress(state.progress, "build",
           absl::StrCat("building for ", arch, arch != build.result.requested_arch
                                                   ? " (requested " + build.result.requested_arch + ")" : "",
                        " with ", build.result.toolchain));
  ExecutionContext context = BuildContext(state, toolchain);

  TreeBuilder builder(launcher_, BuildToolchain{.hipcc = toolchain.hipcc, .label = build.result.toolchain,
                                                .parallel_jobs = options_.parallel_jobs, .rootfs = toolchain.rootfs},
                      request.cancelled);
  BuildOutcome outcome = builder.Build({.source_dir = build.source_dir, .build_dir = build.build_dir, .arch = arch,
                                        .manifest = &state.manifest, .timeout = options_.build_timeout},
                                       context);
  auto mapper = SourceMapper::Create(build.source_dir, request.original_tree, request.line_map);
  build.result.ok = outcome.ok;
  build.result.duration_ms = outcome.duration_ms;
  build.result.kernels = outcome.kernels;
  if (mapper.ok()) build.result.errors = MapBuildErrors(outcome.errors, *mapper, outcome.compiler_cwd);
  if (!outcome.ok && build.result.errors.empty()) build.result.errors.push_back({.message = outcome.failure});
  if (!outcome.ok) build.result.log_excerpt = outcome.log_excerpt;
  build.has_ctest = outcome.has_ctest;
  std::ofstream(arch_dir / "build.log") << outcome.log;
  Progress(state.progress, "build",
           absl::StrCat(arch, outcome.ok ? " built" : " failed: " + outcome.failure, ", ", outcome.kernels.size(),
                        " kernels, ", outcome.duration_ms, " ms"));
}

ExecutionContext Validator::BuildContext(const State& state, const Toolchain& toolchain) const {
  ExecutionContext context;
  JobEnvironmentInput env_input{.device = nullptr, .visibility = options_.visibility,
                                .requested = state.manifest.env, .work_dir = state.work_dir};
  if (toolchain.hipcc.has_parent_path()) env_input.path_prefix.push_back(toolchain.hipcc.parent_path());
  context.environment = BuildJobEnvironment(env_input).variables;
  if (state.sandbox_ok) context.sandbox = SandboxSpec{.work_dir = state.work_dir, .root = toolchain.rootfs};
  context.cancelled = state.request.cancelled;
  return context;
}

absl::Status Validator::LeaseGpu(State& state) {
  auto gpus = inventory_.ListGpus();
  const bool have_gpus = gpus.ok() && !gpus->empty();
  GpuSection& gpu = state.report.gpu;
  if (!have_gpus) {
    const std::string why = inventory_.RuntimeNote();
    gpu.note = why.empty() ? kNoGpuNote : absl::StrCat(kNoGpuNote, " (", why, ")");
  } else if (state.built_archs.empty()) {
    gpu.note = "not run on a GPU: no build succeeded";
  } else {
    auto acquired = leases_.Acquire(state.request.job_id, {state.built_archs.begin(), state.built_archs.end()},
                                    options_.lease_wait);
    if (!acquired.ok()) {
      gpu.note = absl::StrCat("not run on a GPU: ", acquired.status().message());
    } else {
      state.lease = std::move(*acquired);
      gpu.ran_on_gpu = true;
      gpu.device_key = state.lease->device().key;
      gpu.device_arch = state.lease->device().arch;
      gpu.note = absl::StrCat("ran on ", state.lease->device().name, " ", state.lease->device().key);
    }
  }
  return absl::OkStatus();
}

absl::Status Validator::ChooseRunBuild(State& state) {
  // The build of the leased GPU's own arch; a stand-in build of that arch only when there is no other.
  if (state.lease) {
    const std::string& device_arch = state.lease->device().arch;
    for (const ArchBuild& b : state.builds) {
      if (b.result.ok && b.result.arch == device_arch && b.result.requested_arch == b.result.arch) {
        state.run_build = &b;
        break;
      }
    }
    if (state.run_build == nullptr) {
      for (const ArchBuild& b : state.builds) {
        if (b.result.ok && b.result.arch == device_arch) state.run_build = &b;
      }
    }
  }
  if (!state.lease || state.run_build == nullptr) {
    // Nothing runs: every test and parity case says not_run/missing with the reason, never passed.
    const std::string why = state.report.gpu.note.empty() ? kNoGpuNote : state.report.gpu.note;
    ListTestsNotRun(state, why);
    for (const ParityCase& c : state.manifest.parity) state.report.parity.push_back(Missing(c.name, why));
    state.report.gpu.ran_on_gpu = false;
    state.finished = true;
    return absl::OkStatus();
  }

  const GpuDevice& device = state.lease->device();
  const Toolchain& toolchain = *state.run_build->toolchain;
  JobEnvironmentInput env_input{.device = &device, .visibility = options_.visibility,
                                .requested = state.manifest.env,
                                .managed_memory = state.request.managed_memory_found || state.manifest.managed_memory,
                                .work_dir = state.work_dir};
  if (toolchain.hipcc.has_parent_path()) env_input.path_prefix.push_back(toolchain.hipcc.parent_path());
  JobEnvironment env = BuildJobEnvironment(env_input);
  for (const std::string& warning : env.warnings) state.report.gpu.warnings.push_back(warning);
  state.run_context = ExecutionContext{.environment = env.variables, .cancelled = state.request.cancelled};
  if (state.sandbox_ok) {
    state.run_context.sandbox = SandboxSpec{.work_dir = state.work_dir, .root = toolchain.rootfs,
                                            .devices = AmdDeviceNodes(device.render_node), .expose_sysfs = true};
  }
  state.variables = {{"ARCH", state.run_build->result.arch},
                     {"BUILD_DIR", state.run_build->build_dir.string()},
                     {"SOURCE_DIR", state.run_build->source_dir.string()}};
  return absl::OkStatus();
}

void Validator::ListTestsNotRun(State& state, const std::string& why) {
  TestRunner runner(launcher_);
  for (const ArchBuild& b : state.builds) {
    auto not_run = [&](const std::string& name, const std::string& detail) {
      state.report.tests.push_back({.name = name, .arch = b.result.arch, .status = TestStatus::kNotRun,
                                    .output_excerpt = detail});
    };
    for (const TestCommand& t : state.manifest.tests.commands) not_run(t.name, why);
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

absl::Status Validator::RunTests(State& state) {
  const ArchBuild& run_build = *state.run_build;
  Progress(state.progress, "test",
           absl::StrCat("running tests for ", run_build.result.arch, " on ", state.lease->device().key));
  TestRunner runner(launcher_);
  state.report.tests = runner.Run({.arch = run_build.result.arch, .source_dir = run_build.source_dir,
                                   .build_dir = run_build.build_dir, .use_ctest = run_build.has_ctest,
                                   .manifest = &state.manifest, .default_timeout = options_.test_timeout},
                                  state.run_context);
  std::ofstream(state.work_dir / "junit.xml") << ToJUnitXml(state.request.job_id, state.report.tests);
  return absl::OkStatus();
}

absl::Status Validator::CheckParity(State& state) {
  // Outputs are read from the build dir (where commands run), goldens from references_dir.
  const ArchBuild& run_build = *state.run_build;
  for (const ParityCase& c : state.manifest.parity) {
    if (Cancelled(state.request)) return absl::OkStatus();
    Progress(state.progress, "parity", c.name);
    const fs::path reference = state.references_dir / c.reference;
    if (!fs::exists(reference)) {
      state.report.parity.push_back(Missing(c.name, "no CUDA reference " + reference.string()));
      continue;
    }
    std::string produced_stdout;
    if (!c.run.empty()) {
      auto result = launcher_.Run(PrepareCommand(state.run_context,
                                                 ShellCommand(ExpandVariables(c.run, state.variables)),
                                                 run_build.build_dir, options_.test_timeout));
      if (!result.ok() || result->exit_code != 0) {
        state.report.parity.push_back(Missing(
            c.name, result.ok() ? absl::StrCat("run exited ", result->exit_code, ": ",
                                               OutputExcerpt(result->standard_error, 512))
                                : std::string(result.status().message())));
        continue;
      }
      produced_stdout = result->standard_output;
    }
    const OutputFormat format = c.format.value_or(GuessOutputFormat(reference));
    auto expected = LoadArray(reference, format, c.dtype, c.text);
    absl::StatusOr<ArrayData> actual =
        c.from_stdout ? ParseTextArray(produced_stdout, c.dtype.value_or(DType::kFloat64), c.text)
                      : LoadArray(run_build.build_dir / ExpandVariables(c.output, state.variables), format, c.dtype,
                                  c.text);
    if (!expected.ok() || !actual.ok()) {
      state.report.parity.push_back(Missing(c.name, std::string(!expected.ok() ? expected.status().message()
                                                                               : actual.status().message())));
      continue;
    }
    Tolerance tolerance = DefaultTolerance(expected->dtype);
    if (c.rtol) tolerance.rtol = *c.rtol;
    if (c.atol) tolerance.atol = *c.atol;
    state.report.parity.push_back(CompareArrays(c.name, *actual, *expected, tolerance));
  }
  return absl::OkStatus();
}

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
