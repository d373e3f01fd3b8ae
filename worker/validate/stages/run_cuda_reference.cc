// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/tree_builder.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

// "3 of 4 passed, 1 failed" over the reference runs.
std::string Tally(const std::map<std::string, TestResult>& results) {
  int passed = 0, failed = 0, not_run = 0;
  for (const auto& [name, result] : results) {
    passed += result.status == TestStatus::kPassed;
    failed += result.status == TestStatus::kFailed || result.status == TestStatus::kTimedOut;
    not_run += result.status == TestStatus::kNotRun;
  }
  std::string text = absl::StrCat(passed, " of ", results.size(), " passed");
  if (failed > 0) absl::StrAppend(&text, ", ", failed, " failed");
  if (not_run > 0) absl::StrAppend(&text, ", ", not_run, " not run");
  return text;
}

// The reference nvcc first on PATH, building for `arch` (its HIPFORGE_CUDA_ARCH).
void PrependReferenceNvcc(ExecutionContext& context, const Toolchain& toolchain, const std::string& arch) {
  std::string& path = context.environment["PATH"];
  path = toolchain.cuda_reference_nvcc.parent_path().string() + (path.empty() ? "" : ":" + path);
  context.environment["HIPFORGE_CUDA_ARCH"] = arch;
}

}  // namespace

int PairWithCuda(const Validator::CudaReference& cuda, std::vector<TestResult>& tests) {
  int paired = 0;
  for (TestResult& test : tests) {
    auto it = cuda.results.find(test.name);
    if (it == cuda.results.end()) continue;
    test.cuda = ReferenceRun{.status = it->second.status,
                             .duration_ms = it->second.duration_ms,
                             .output_excerpt = it->second.output_excerpt};
    ++paired;
  }
  return paired;
}

absl::Status Validator::BuildCudaReference(State& state) {
  // On HIP's NVIDIA platform the CUDA original can run on the same GPU: build the submitted tree with its own build
  // files and the reference nvcc for the arch the HIP build targets, before the GPU is leased (builds need none).
  const ArchBuild* hip = nullptr;
  for (const ArchBuild& b : state.builds) {
    if (b.result.ok && b.toolchain != nullptr && !b.toolchain->cuda_reference_nvcc.empty() &&
        absl::StartsWith(b.result.arch, "sm_")) {
      hip = &b;
      break;
    }
  }
  if (hip == nullptr) return absl::OkStatus();
  GpuSection& gpu = state.report.gpu;
  if (!options_.cuda_reference) {
    gpu.cuda_reference = "no CUDA reference: turned off on this worker (--no-cuda-reference)";
    return absl::OkStatus();
  }
  const fs::path& original = state.request.original_tree;
  if (original.empty() || !fs::is_directory(original)) {
    gpu.cuda_reference = "no CUDA reference: the submitted CUDA tree did not reach this worker";
    return absl::OkStatus();
  }
  const Toolchain& toolchain = *hip->toolchain;
  const std::string arch = TargetProcessor(hip->result.arch);  // sm_90:wave64 is a HIP-side mode of sm_90
  auto cuda = std::make_unique<CudaReference>();
  cuda->arch = arch;
  const fs::path dir = state.work_dir / ("cuda-" + TargetDirectoryName(arch));
  cuda->source_dir = dir / "src";
  cuda->build_dir = dir / "build";
  if (absl::Status copied = CopyTree(original, cuda->source_dir); !copied.ok()) {
    gpu.cuda_reference = absl::StrCat("no CUDA reference: ", copied.message());
    return absl::OkStatus();
  }
  Progress(state.progress, "reference", absl::StrCat("building the submitted CUDA tree for ", arch));
  ExecutionContext context = BuildContext(state, toolchain);
  PrependReferenceNvcc(context, toolchain, arch);
  TreeBuilder builder(launcher_,
                      BuildToolchain{.hipcc = toolchain.cuda_reference_nvcc,
                                     .label = "CUDA original",
                                     .parallel_jobs = options_.parallel_jobs,
                                     .rootfs = toolchain.rootfs,
                                     .cuda_original = true},
                      state.request.cancelled);
  const BuildOutcome outcome = builder.Build({.source_dir = cuda->source_dir,
                                              .build_dir = cuda->build_dir,
                                              .arch = arch,
                                              .manifest = &state.manifest,
                                              .timeout = BuildTimeout(state)},
                                             context);
  std::ofstream(dir / "build.log") << outcome.log;
  cuda->built = outcome.ok || outcome.roots > 1;  // with several roots, those that built still give references
  if (!cuda->built) {
    gpu.cuda_reference =
        absl::StrCat("no CUDA reference: the submitted CUDA tree did not build for ", arch, " (", outcome.failure, ")");
    Progress(state.progress, "reference", gpu.cuda_reference);
    return absl::OkStatus();
  }
  cuda->build_note = absl::StrCat("the submitted CUDA tree built for ", arch, " with its own build files (",
                                  outcome.duration_ms / 1000.0, " s", outcome.ok ? "" : "; " + outcome.failure, ")");
  cuda->variables = {
      {"ARCH", arch}, {"BUILD_DIR", cuda->build_dir.string()}, {"SOURCE_DIR", cuda->source_dir.string()}};
  cuda->tests = {
      .arch = arch,
      .source_dir = cuda->source_dir,
      .build_dir = cuda->build_dir,
      .use_ctest = outcome.has_ctest,
      .manifest = &state.manifest,
      .default_timeout = options_.test_timeout,
      .rerun_failures_serialized = false,
      .discovered = DiscoveredTests(cuda->source_dir, outcome.built_roots, arch, toolchain.cuda_reference_nvcc)};
  gpu.cuda_reference = cuda->build_note + "; its tests did not run (no GPU run)";
  Progress(state.progress, "reference", cuda->build_note);
  state.cuda = std::move(cuda);
  return absl::OkStatus();
}

absl::Status Validator::RunCudaReference(State& state) {
  // The same tests on the CUDA build, on the leased GPU; each run is kept beside its HIP twin.
  if (state.cuda == nullptr || !state.cuda->built) return absl::OkStatus();
  CudaReference& cuda = *state.cuda;
  GpuSection& gpu = state.report.gpu;
  const std::string& device_arch = state.lease->device().arch;
  if (device_arch != cuda.arch) {
    gpu.cuda_reference = absl::StrCat(cuda.build_note, "; its tests did not run: the leased GPU is ", device_arch);
    cuda.built = false;
    return absl::OkStatus();
  }
  cuda.context = state.run->context;
  PrependReferenceNvcc(cuda.context, *state.run->build->toolchain, cuda.arch);
  Progress(state.progress, "reference", absl::StrCat("running the same tests on the CUDA original (", cuda.arch, ")"));
  TestRunInput run = cuda.tests;
  run.outputs = &cuda.outputs;
  for (TestResult& result : TestRunner(launcher_).Run(run, cuda.context)) cuda.results[result.name] = std::move(result);
  const int paired = PairWithCuda(cuda, state.report.tests);
  gpu.cuda_reference = absl::StrCat(cuda.build_note, " and ran the same tests: ", Tally(cuda.results));
  if (paired < static_cast<int>(state.report.tests.size())) {
    absl::StrAppend(&gpu.cuda_reference, "; ", state.report.tests.size() - paired, " HIP test(s) had no CUDA twin");
  }
  Progress(state.progress, "reference", gpu.cuda_reference);
  return absl::OkStatus();
}

}  // namespace hipforge::validate
