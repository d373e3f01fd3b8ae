#include "worker/validate/validator.h"

namespace hipforge::validate {

Validator::Validator(ProcessLauncher& launcher, GpuInventory& inventory, GpuLeaseManager& leases,
                     ValidatorOptions options)
    : launcher_(launcher), inventory_(inventory), leases_(leases), options_(std::move(options)) {}

// TEMPORARY (header published early for the worker wiring): the pipeline lands in the next commits.
absl::StatusOr<ValidationReport> Validator::Validate(const ValidationRequest&, ProgressSink*) {
  return absl::UnimplementedError("validate pipeline not implemented yet");
}

}  // namespace hipforge::validate
