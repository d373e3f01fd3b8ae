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

struct ArchBuild {
  BuildResult result;
  fs::path source_dir;
  fs::path build_dir;
  bool has_ctest = false;
};

bool Cancelled(const ValidationRequest& request) {
  return request.cancelled != nullptr && request.cancelled->load();
}

ParityResult Missing(const std::string& name, const std::string& why) {
  return {.case_name = name, .verdict = ParityVerdict::kMissing, .detail = why};
}

}  // namespace

Validator::Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases,
                     ValidatorOptions options)
    : launcher_(launcher), inventory_(inventory), leases_(leases), options_(std::move(options)) {}

absl::StatusOr<ValidationReport> Validator::Validate(const ValidationRequest& request, ProgressSink* progress) {
  if (!fs::is_directory(request.translated_tree)) {
    return absl::InvalidArgumentError("translated tree not found: " + request.translated_tree.string());
  }
  if (request.work_dir.empty()) return absl::InvalidArgumentError("work_dir is required");
  std::error_code ec;
  const fs::path work_dir = fs::absolute(request.work_dir);
  fs::create_directories(work_dir / "tmp", ec);

  // --- manifest ---
  Manifest manifest;
  const fs::path manifest_path = !request.manifest.empty() ? request.manifest
                                                           : request.translated_tree / "hipforge.yaml";
  if (fs::exists(manifest_path)) {
    auto loaded = LoadManifest(manifest_path);
    if (!loaded.ok()) return loaded.status();
    manifest = std::move(*loaded);
  } else if (!request.manifest.empty()) {
    return absl::NotFoundError("manifest not found: " + request.manifest.string());
  }

  // --- CUDA references: explicit dir, else the manifest's directory in the repository ---
  fs::path references_dir = request.references_dir;
  if (references_dir.empty()) {
    const fs::path repository = !request.original_tree.empty() ? request.original_tree : request.translated_tree;
    references_dir = manifest.references.empty() ? repository : repository / manifest.references;
  }
  const absl::Status cancelled_status = absl::CancelledError("validation stopped: the job was cancelled");

  // --- capabilities ---
  ValidationReport report;
  auto targets = inventory_.CompileTargets();
  const std::string toolchain = options_.toolchain_label.empty() ? inventory_.ToolchainName() : options_.toolchain_label;
  std::vector<std::string> archs = request.requested_archs;
  if (archs.empty()) archs = manifest.targets;
  if (archs.empty()) archs = {"gfx90a"};

  const bool sandbox_ok = options_.use_sandbox && ProbeSandbox(launcher_, "/usr/bin/bwrap").ok();
  if (options_.use_sandbox && !sandbox_ok) {
    report.gpu.warnings.push_back("bubblewrap unavailable here: user commands ran without a sandbox");
  }

  // --- builds ---
  std::vector<ArchBuild> builds;
  std::set<std::string> built_archs;
  for (const std::string& requested : archs) {
    if (Cancelled(request)) return cancelled_status;
    ArchBuild build;
    build.result.requested_arch = requested;
    build.result.toolchain = toolchain;
    ArchChoice choice = targets.ok() ? ChooseBuildArch(requested, *targets)
                                     : ArchChoice{.requested = requested, .arch = requested,
                                                  .note = "toolchain targets unknown: " +
                                                          std::string(targets.status().message())};
    build.result.arch = choice.arch;
    build.result.note = choice.note;
    if (choice.arch.empty() || built_archs.count(choice.arch)) {
      if (!choice.arch.empty()) {
        // Two requests map to the same target: report the first build's outcome for this one too.
        for (const ArchBuild& earlier : builds) {
          if (earlier.result.arch == choice.arch) {
            const std::string note = build.result.note;
            build.result = earlier.result;
            build.result.requested_arch = requested;
            build.result.note = note;
          }
        }
      }
      builds.push_back(std::move(build));
      continue;
    }
    build.source_dir = work_dir / choice.arch / "src";
    build.build_dir = work_dir / choice.arch / "build";
    if (auto copied = CopyTree(request.translated_tree, build.source_dir); !copied.ok()) return copied;
    Progress(progress, "build", absl::StrCat("building for ", choice.arch,
                                             choice.arch != requested ? " (requested " + requested + ")" : ""));

    ExecutionContext context;
    JobEnvironmentInput env_input{.device = nullptr, .visibility = options_.visibility, .requested = manifest.env,
                                  .work_dir = work_dir};
    if (options_.hipcc.has_parent_path()) env_input.path_prefix.push_back(options_.hipcc.parent_path());
    context.environment = BuildJobEnvironment(env_input).variables;
    if (sandbox_ok) context.sandbox = SandboxSpec{.work_dir = work_dir};
    context.cancelled = request.cancelled;

    TreeBuilder builder(launcher_, BuildToolchain{.hipcc = options_.hipcc, .label = toolchain,
                                                  .parallel_jobs = options_.parallel_jobs},
                        request.cancelled);
    BuildOutcome outcome = builder.Build({.source_dir = build.source_dir, .build_dir = build.build_dir,
                                          .arch = choice.arch, .manifest = &manifest,
                                          .timeout = options_.build_timeout},
                                         context);
    if (Cancelled(request)) return cancelled_status;
    auto mapper = SourceMapper::Create(build.source_dir, request.original_tree, request.line_map);
    if (!mapper.ok()) return mapper.status();
    build.result.ok = outcome.ok;
    build.result.duration_ms = outcome.duration_ms;
    build.result.kernels = outcome.kernels;
    build.result.errors = MapBuildErrors(outcome.errors, *mapper, outcome.compiler_cwd);
    if (!outcome.ok && build.result.errors.empty()) build.result.errors.push_back({.message = outcome.failure});
    if (!outcome.ok) build.result.log_excerpt = outcome.log_excerpt;
    build.has_ctest = outcome.has_ctest;
    std::ofstream(work_dir / choice.arch / "build.log") << outcome.log;
    Progress(progress, "build", absl::StrCat(choice.arch, outcome.ok ? " built" : " failed: " + outcome.failure,
                                             ", ", outcome.kernels.size(), " kernels, ", outcome.duration_ms, " ms"));
    if (outcome.ok) built_archs.insert(choice.arch);
    builds.push_back(std::move(build));
  }
  for (const ArchBuild& b : builds) report.builds.push_back(b.result);

  if (Cancelled(request)) return cancelled_status;
  // --- GPU lease ---
  auto gpus = inventory_.ListGpus();
  const bool have_gpus = gpus.ok() && !gpus->empty();
  std::unique_ptr<GpuLease> lease;
  if (!have_gpus) {
    const std::string why = inventory_.RuntimeNote();
    report.gpu.note = why.empty() ? kNoGpuNote : absl::StrCat(kNoGpuNote, " (", why, ")");
  } else if (built_archs.empty()) {
    report.gpu.note = "not run on a GPU: no build succeeded";
  } else {
    auto acquired = leases_.Acquire(request.job_id, {built_archs.begin(), built_archs.end()}, options_.lease_wait);
    if (!acquired.ok()) {
      report.gpu.note = absl::StrCat("not run on a GPU: ", acquired.status().message());
    } else {
      lease = std::move(*acquired);
      report.gpu.ran_on_gpu = true;
      report.gpu.device_key = lease->device().key;
      report.gpu.device_arch = lease->device().arch;
      report.gpu.note = absl::StrCat("ran on ", lease->device().name, " ", lease->device().key);
    }
  }

  // --- tests, parity, profile on the leased GPU ---
  const ArchBuild* run_build = nullptr;
  for (const ArchBuild& b : builds) {
    if (lease && b.result.ok && b.result.arch == lease->device().arch && b.result.requested_arch == b.result.arch) {
      run_build = &b;
      break;
    }
  }
  if (lease && run_build == nullptr) {
    for (const ArchBuild& b : builds) {
      if (b.result.ok && b.result.arch == lease->device().arch) run_build = &b;
    }
  }
  if (!lease || run_build == nullptr) {
    const std::string why = report.gpu.note.empty() ? kNoGpuNote : report.gpu.note;
    for (const ArchBuild& b : builds) {
      for (const TestCommand& t : manifest.tests.commands) {
        report.tests.push_back({.name = t.name, .arch = b.result.arch, .status = TestStatus::kNotRun,
                                .output_excerpt = why});
      }
    }
    for (const ParityCase& c : manifest.parity) report.parity.push_back(Missing(c.name, why));
    report.gpu.ran_on_gpu = false;
    return report;
  }

  const GpuDevice& device = lease->device();
  JobEnvironmentInput env_input{.device = &device, .visibility = options_.visibility, .requested = manifest.env,
                                .managed_memory = request.managed_memory_found || manifest.managed_memory,
                                .work_dir = work_dir};
  if (options_.hipcc.has_parent_path()) env_input.path_prefix.push_back(options_.hipcc.parent_path());
  JobEnvironment env = BuildJobEnvironment(env_input);
  for (const std::string& warning : env.warnings) report.gpu.warnings.push_back(warning);
  ExecutionContext context{.environment = env.variables, .cancelled = request.cancelled};
  if (sandbox_ok) {
    context.sandbox = SandboxSpec{.work_dir = work_dir, .devices = AmdDeviceNodes(device.render_node),
                                  .expose_sysfs = true};
  }

  if (Cancelled(request)) return cancelled_status;
  Progress(progress, "test", absl::StrCat("running tests for ", run_build->result.arch, " on ", device.key));
  TestRunner runner(launcher_);
  report.tests = runner.Run({.arch = run_build->result.arch, .source_dir = run_build->source_dir,
                             .build_dir = run_build->build_dir, .use_ctest = run_build->has_ctest,
                             .manifest = &manifest, .default_timeout = options_.test_timeout},
                            context);
  std::ofstream(work_dir / "junit.xml") << ToJUnitXml(request.job_id, report.tests);

  // Parity: outputs are read from the build dir (where commands run), goldens from references_dir.
  const std::map<std::string, std::string> variables = {{"ARCH", run_build->result.arch},
                                                        {"BUILD_DIR", run_build->build_dir.string()},
                                                        {"SOURCE_DIR", run_build->source_dir.string()}};
  for (const ParityCase& c : manifest.parity) {
    if (Cancelled(request)) return cancelled_status;
    Progress(progress, "parity", c.name);
    const fs::path reference = references_dir / c.reference;
    if (!fs::exists(reference)) {
      report.parity.push_back(Missing(c.name, "no CUDA reference " + reference.string()));
      continue;
    }
    std::string produced_stdout;
    if (!c.run.empty()) {
      auto result = launcher_.Run(PrepareCommand(context, ShellCommand(ExpandVariables(c.run, variables)),
                                                 run_build->build_dir, options_.test_timeout));
      if (!result.ok() || result->exit_code != 0) {
        report.parity.push_back(Missing(
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
                      : LoadArray(run_build->build_dir / ExpandVariables(c.output, variables), format, c.dtype, c.text);
    if (!expected.ok() || !actual.ok()) {
      report.parity.push_back(Missing(c.name, std::string(!expected.ok() ? expected.status().message()
                                                                         : actual.status().message())));
      continue;
    }
    Tolerance tolerance = DefaultTolerance(expected->dtype);
    if (c.rtol) tolerance.rtol = *c.rtol;
    if (c.atol) tolerance.atol = *c.atol;
    report.parity.push_back(CompareArrays(c.name, *actual, *expected, tolerance));
  }

  // Profile: the manifest's command, else the first test command.
  Profiler profiler = FindProfiler(options_.hipcc.has_parent_path() ? options_.hipcc.parent_path() : fs::path());
  std::string profile_command = manifest.profile.command;
  if (profile_command.empty() && !manifest.tests.commands.empty()) profile_command = manifest.tests.commands[0].run;
  if (Cancelled(request)) return cancelled_status;
  if (options_.profile && manifest.profile.enabled && profiler.kind != ProfilerKind::kNone &&
      !profile_command.empty()) {
    Progress(progress, "profile", profiler.program.string());
    const fs::path out_dir = work_dir / "profile";
    fs::create_directories(out_dir, ec);
    auto argv = ProfilerCommand(profiler, out_dir, ShellCommand(ExpandVariables(profile_command, variables)));
    auto result = launcher_.Run(PrepareCommand(context, argv, run_build->build_dir, options_.test_timeout));
    auto csv_path = FindStatsCsv(profiler, out_dir);
    if (result.ok() && csv_path.ok()) {
      std::ifstream in(*csv_path);
      std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (auto parsed = ParseKernelStatsCsv(csv); parsed.ok()) report.profile = std::move(*parsed);
    } else {
      report.gpu.warnings.push_back("profiling produced no stats: " +
                                    std::string(csv_path.ok() ? result.status().message() : csv_path.status().message()));
    }
    fs::path baseline = references_dir /
                        (manifest.profile.cuda_baseline.empty() ? "cuda_timings.csv" : manifest.profile.cuda_baseline);
    if (fs::exists(baseline)) {
      std::ifstream in(baseline);
      std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (auto parsed = ParseKernelStatsCsv(csv); parsed.ok()) AttachBaseline(report.profile, *parsed);
    }
  }
  return report;
}

}  // namespace hipforge::validate
