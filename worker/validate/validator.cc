#include "worker/validate/validator.h"

#include "worker/validate/validator_state.h"

namespace hipforge::validate {

Validator::Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases,
                     ValidatorOptions options)
    : launcher_(launcher), inventory_(inventory), leases_(leases), options_(std::move(options)) {}

// The stages in the order they run (each in stages/<name>.cc; docs/architecture.md lists them): a cancelled job
// stops the run between stages, and a stage that completes the report early (nothing runs on a GPU) ends it.
Pipeline<Validator::State> Validator::Stages() {
  const auto stage = [this](absl::Status (Validator::*run)(State&)) {
    return [this, run](State& state) { return (this->*run)(state); };
  };
  Pipeline<State>::Options options;
  options.stop = [](const State& state) {
    return Cancelled(state.request) ? absl::CancelledError("validation stopped: the job was cancelled")
                                    : absl::OkStatus();
  };
  options.finished = [](const State& state) { return state.finished; };
  return Pipeline<State>("validate",
                         std::vector<Pipeline<State>::NamedStage>{
                             {"LoadInputs", stage(&Validator::LoadInputs)},
                             {"CheckSandbox", stage(&Validator::CheckSandbox)},
                             {"SelectToolchains", stage(&Validator::SelectToolchains)},
                             {"BuildArchs", stage(&Validator::BuildArchs)},
                             {"BuildCudaReference", stage(&Validator::BuildCudaReference)},
                             {"LeaseGpu", stage(&Validator::LeaseGpu)},
                             {"ChooseRunBuild", stage(&Validator::ChooseRunBuild)},
                             {"RunTests", stage(&Validator::RunTests)},
                             {"RunCudaReference", stage(&Validator::RunCudaReference)},
                             {"CheckParity", stage(&Validator::CheckParity)},
                             {"RunOtherBuilds", stage(&Validator::RunOtherBuilds)},
                             {"Profile", stage(&Validator::Profile)},
                         },
                         std::move(options));
}

absl::StatusOr<ValidationReport> Validator::Validate(const ValidationRequest& request, ProgressSink* progress) {
  State state{.request = request, .progress = progress};
  if (absl::Status status = Stages().Run(state); !status.ok()) return status;
  return std::move(state.report);
}

}  // namespace hipforge::validate
