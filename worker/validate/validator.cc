#include "worker/validate/validator.h"

#include "worker/validate/validator_state.h"

namespace hipforge::validate {

Validator::Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases,
                     ValidatorOptions options)
    : launcher_(launcher), inventory_(inventory), leases_(leases), options_(std::move(options)) {}

absl::StatusOr<ValidationReport> Validator::Validate(const ValidationRequest& request, ProgressSink* progress) {
  using Stage = absl::Status (Validator::*)(State&);
  static constexpr Stage kStages[] = {
      &Validator::LoadInputs, &Validator::CheckSandbox,   &Validator::SelectToolchains, &Validator::BuildArchs,
      &Validator::BuildCudaReference, &Validator::LeaseGpu, &Validator::ChooseRunBuild, &Validator::RunTests,
      &Validator::RunCudaReference, &Validator::CheckParity, &Validator::RunOtherBuilds, &Validator::Profile};
  State state{.request = request, .progress = progress};
  for (Stage stage : kStages) {
    if (Cancelled(request)) return absl::CancelledError("validation stopped: the job was cancelled");
    if (absl::Status status = (this->*stage)(state); !status.ok()) return status;
    if (state.finished) break;
  }
  if (Cancelled(request)) return absl::CancelledError("validation stopped: the job was cancelled");
  return std::move(state.report);
}

}  // namespace hipforge::validate
