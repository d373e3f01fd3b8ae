// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/strings/str_cat.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/parity.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

// What `c` produced when run in `build_dir`: its standard output (from_stdout) or the file it names.
absl::StatusOr<ArrayData> Produced(ProcessLauncher& launcher, const ParityCase& c, const ExecutionContext& context,
                                   const fs::path& build_dir, const std::map<std::string, std::string>& variables,
                                   OutputFormat format, std::chrono::milliseconds timeout) {
  std::string produced_stdout;
  if (!c.run.empty()) {
    auto result =
        launcher.Run(PrepareCommand(context, ShellCommand(ExpandVariables(c.run, variables)), build_dir, timeout));
    if (!result.ok()) return result.status();
    if (result->exit_code != 0) {
      return absl::AbortedError(
          absl::StrCat("run exited ", result->exit_code, ": ", OutputExcerpt(result->standard_error, 512)));
    }
    produced_stdout = result->standard_output;
  }
  return c.from_stdout ? ParseTextArray(produced_stdout, c.dtype.value_or(DType::kFloat64), c.text)
                       : LoadArray(build_dir / ExpandVariables(c.output, variables), format, c.dtype, c.text);
}

}  // namespace

absl::Status Validator::CheckParity(State& state) {
  for (const ParityCase& c : state.manifest.parity) {
    if (Cancelled(state.request)) return absl::OkStatus();
    Progress(state.progress, "parity", c.name);
    state.report.parity.push_back(CompareCase(state, c));
  }
  CompareTestOutputs(state, state.report.tests, state.outputs, "");
  return absl::OkStatus();
}

// One manifest case: HIP's output (run build) against the golden in references_dir, else against what the same
// case produced in the CUDA reference build.
ParityResult Validator::CompareCase(State& state, const ParityCase& c) {
  const ArchBuild& run_build = *state.run->build;
  const fs::path golden = state.references_dir / c.reference;
  const bool use_golden = fs::exists(golden);
  if (!use_golden && (state.cuda == nullptr || !state.cuda->built)) {
    return Missing(c.name,
                   "no CUDA reference " + golden.string() +
                       (state.report.gpu.cuda_reference.empty() ? "" : " (" + state.report.gpu.cuda_reference + ")"));
  }
  const OutputFormat format = c.format.value_or(GuessOutputFormat(use_golden ? golden : fs::path(c.output)));
  absl::StatusOr<ArrayData> actual = Produced(launcher_, c, state.run->context, run_build.build_dir,
                                              state.run->variables, format, options_.test_timeout);
  if (!actual.ok()) return Missing(c.name, std::string(actual.status().message()));
  absl::StatusOr<ArrayData> expected = use_golden ? LoadArray(golden, format, c.dtype, c.text)
                                                  : Produced(launcher_, c, state.cuda->context, state.cuda->build_dir,
                                                             state.cuda->variables, format, options_.test_timeout);
  if (!expected.ok()) {
    return Missing(c.name, absl::StrCat(use_golden ? "" : "the CUDA original's run: ", expected.status().message()));
  }
  Tolerance tolerance = DefaultTolerance(expected->dtype);
  if (c.rtol) tolerance.rtol = *c.rtol;
  if (c.atol) tolerance.atol = *c.atol;
  ParityResult result = CompareArrays(c.name, *actual, *expected, tolerance);
  if (!use_golden) {
    result.detail = absl::StrCat(result.detail, result.detail.empty() ? "" : "; ",
                                 "reference: the CUDA original's output, captured on this GPU");
  }
  return result;
}

// Each test that passed in both forms: the numbers it printed with HIP against those of its CUDA run. A mismatch is
// checked against a second CUDA run first: output that varies between CUDA runs is no reference.
void Validator::CompareTestOutputs(State& state, const std::vector<TestResult>& tests,
                                   const std::map<std::string, std::string>& outputs, const std::string& suffix) {
  if (state.cuda == nullptr) return;
  CudaReference& cuda = *state.cuda;
  for (const TestResult& test : tests) {
    if (Cancelled(state.request)) return;
    if (test.status != TestStatus::kPassed || !test.cuda || test.cuda->status != TestStatus::kPassed) continue;
    auto hip_output = outputs.find(test.name);
    auto cuda_output = cuda.outputs.find(test.name);
    if (hip_output == outputs.end() || cuda_output == cuda.outputs.end()) continue;
    const std::string name = "output of " + test.name + suffix;
    std::optional<ParityResult> result = CompareOutputs(name, hip_output->second, cuda_output->second);
    if (!result) continue;  // nothing but words and timings: the test's status is all there is
    if (result->verdict == ParityVerdict::kMismatch) {
      Progress(state.progress, "parity", absl::StrCat(name, " differs: running the CUDA original once more"));
      absl::StatusOr<std::string> again = TestRunner(launcher_).RerunOutput(cuda.tests, test.name, cuda.context);
      if (absl::IsNotFound(again.status())) {  // a ctest test: not re-run one by one, the mismatch stands
        state.report.parity.push_back(std::move(*result));
        continue;
      }
      std::optional<ParityResult> stable =
          again.ok() ? CompareOutputs(name, *again, cuda_output->second) : std::nullopt;
      if (!stable || stable->verdict != ParityVerdict::kMatch) {
        state.report.gpu.warnings.push_back(
            absl::StrCat(name, " not compared: the CUDA original's own output differs between two runs",
                         again.ok() ? "" : absl::StrCat(" (", again.status().message(), ")")));
        continue;
      }
    }
    state.report.parity.push_back(std::move(*result));
  }
}

}  // namespace hipforge::validate
