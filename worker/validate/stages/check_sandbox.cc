// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "worker/userbuild/sandbox.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::CheckSandbox(State& state) {
  state.sandbox_ok = options_.use_sandbox && ProbeSandbox(launcher_, DefaultBwrap()).ok();
  if (options_.use_sandbox && !state.sandbox_ok) {
    state.report.gpu.warnings.push_back("bubblewrap unavailable here: user commands ran without a sandbox");
  }
  return absl::OkStatus();
}

}  // namespace hipforge::validate
