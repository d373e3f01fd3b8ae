// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/strings/str_cat.h"
#include "worker/validate/parity.h"
#include "worker/validate/sandbox.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

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

}  // namespace hipforge::validate
