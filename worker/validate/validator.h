#pragma once
// Entry point of the validate role: build the translated HIP tree per requested arch, collect
// kernel resources, run tests on a leased GPU (or say why not), compare outputs with CUDA
// references and profile. Dependencies come in through the constructor.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/pipeline.h"
#include "common/process.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/gpu_inventory.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/manifest.h"
#include "worker/validate/report.h"
#include "worker/validate/toolchain.h"
#include "worker/validate/validation_request.h"

namespace hipforge::validate {

// What the stages share (defined in validator_state.h, below this header).
struct ValidationState;
struct ArchBuild;
struct CudaReference;
struct RunPlan;

struct ValidatorOptions {
  // Probed toolchains, newest first (LocalToolchainSource). Empty: one `host` toolchain made of `hipcc`
  // below and the inventory's compile targets.
  std::vector<Toolchain> toolchains;
  std::filesystem::path hipcc = "hipcc";  // the host toolchain when `toolchains` is empty
  VisibilityVariable visibility = VisibilityVariable::kRocrVisibleDevices;
  bool use_sandbox = true;  // bubblewrap around user build/test commands when available
  std::chrono::milliseconds build_timeout{std::chrono::minutes(20)};
  std::chrono::milliseconds test_timeout{std::chrono::minutes(10)};
  std::chrono::milliseconds lease_wait{std::chrono::minutes(30)};
  bool profile = true;  // rocprofv3/rocprof (ncu on NVIDIA) when present and a GPU is leased
  // Jobs whose tests may share one GPU (FileLockLeaseManager's slots); reports say when a run shared it.
  int gpu_slots = 1;
  // On an NVIDIA GPU: build the submitted CUDA tree too and run the same tests (the automatic CUDA reference).
  bool cuda_reference = true;
  std::filesystem::path ncu;  // NVIDIA kernel profiles; empty: FindNcu (PATH, /usr/local/cuda/bin)
  int parallel_jobs = 2;
};

class Validator {
 public:
  Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases, ValidatorOptions options);
  // Errors only for broken requests (missing tree, bad manifest) and Cancelled; build/test failures
  // are in the report.
  absl::StatusOr<ValidationReport> Validate(const ValidationRequest& request, ProgressSink* progress);

  // The pipeline, in order; each stage reads and extends the one State (validator_state.h). Validate runs
  // them (Stages() in validator.cc lists them); each is in worker/validate/stages/<name>.cc and has its own test in
  // tests/validate/stages/, which is why they are public.
  using State = ValidationState;
  using ArchBuild = validate::ArchBuild;
  using CudaReference = validate::CudaReference;
  using RunPlan = validate::RunPlan;
  // This validator's stages as one Pipeline (common/pipeline.h), in the order Validate runs them.
  Pipeline<State> Stages();
  absl::Status LoadInputs(State& state);
  absl::Status CheckSandbox(State& state);
  absl::Status SelectToolchains(State& state);
  absl::Status BuildArchs(State& state);
  absl::Status BuildCudaReference(State& state);
  absl::Status LeaseGpu(State& state);
  absl::Status ChooseRunBuild(State& state);
  absl::Status RunTests(State& state);
  absl::Status RunCudaReference(State& state);
  absl::Status CheckParity(State& state);
  absl::Status RunOtherBuilds(State& state);
  absl::Status Profile(State& state);

 private:
  void BuildOne(State& state, ArchBuild& build);  // one arch with its chosen toolchain
  // How build steps run with `toolchain`: its environment, inside its root filesystem when sandboxed.
  ExecutionContext BuildContext(const State& state, const Toolchain& toolchain) const;
  // hipforge.yaml's build.timeout_s when given, else the worker's (ValidatorOptions::build_timeout).
  std::chrono::milliseconds BuildTimeout(const State& state) const;
  // Nothing runs on a GPU: the tests each build would have run, all not_run with `why`.
  void ListTestsNotRun(State& state, const std::string& why);
  // CheckParity's parts: the manifest's cases, and each test's output against its CUDA reference run.
  ParityResult CompareCase(State& state, const ParityCase& c);
  // `tests` (with `outputs`, by test name) against their CUDA runs; `suffix` names another build's cases.
  void CompareTestOutputs(State& state, const std::vector<TestResult>& tests,
                          const std::map<std::string, std::string>& outputs, const std::string& suffix);
  // How tests of `build` run on the leased GPU: its environment, devices, toolchain; the environment's warnings.
  ExecutionContext RunContext(const State& state, const ArchBuild& build, std::vector<std::string>* warnings) const;
  // Where one side's command runs: its build dir, context and ${...} variables (the HIP build or the CUDA reference).
  struct RunPlace {
    const std::filesystem::path& build_dir;
    const ExecutionContext& context;
    const std::map<std::string, std::string>& variables;
  };
  // Profile's part: per-kernel times of `command` run at `place`; empty with a warning.
  std::vector<KernelProfile> ProfileRun(State& state, const Toolchain& toolchain, const std::string& command,
                                        const RunPlace& place, const std::string& side);

  ProcessLauncher& launcher_;
  GpuInventory& inventory_;
  GpuLeaseManager& leases_;
  ValidatorOptions options_;
};

}  // namespace hipforge::validate
