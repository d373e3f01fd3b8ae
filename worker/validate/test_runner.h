#pragma once
// Runs a build's tests (ctest, or the manifest's commands) with timeouts and output capture, and
// writes/reads JUnit XML. A failing test is re-run once with AMD_SERIALIZE_KERNEL=3 so the report
// shows whether the failure localises to one kernel launch.
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "worker/userbuild/sandbox.h"
#include "worker/validate/manifest.h"
#include "worker/validate/report.h"
#include "worker/validate/tree_builder.h"

namespace hipforge::validate {

struct TestRunInput {
  std::string arch;
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  bool use_ctest = false;
  const Manifest* manifest = nullptr;
  std::chrono::milliseconds default_timeout{std::chrono::minutes(10)};
  bool rerun_failures_serialized = true;
  std::vector<TestCommand> discovered;  // run when the manifest names no test commands (DiscoveredTests)
  // When set: each test's standard output by name (ctest tests: the output its JUnit file kept), for comparing
  // a HIP run with its CUDA reference.
  std::map<std::string, std::string>* outputs = nullptr;
};

class TestRunner {
 public:
  explicit TestRunner(ProcessLauncher& launcher);
  std::vector<TestResult> Run(const TestRunInput& input, const ExecutionContext& context);
  // The names of the tests a CMake build dir defines (`ctest -N --show-only=json-v1`, run in `context`,
  // e.g. inside the build's toolchain): what a report lists as not_run when nothing can run them.
  absl::StatusOr<std::vector<std::string>> ListCTest(const TestRunInput& input, const ExecutionContext& context);
  // One test of Run's list again, by name (commands only; NotFound for a ctest test or an unknown name): its
  // standard output, Aborted when it does not pass again; e.g. whether a CUDA reference's output is stable.
  absl::StatusOr<std::string> RerunOutput(const TestRunInput& input, const std::string& name,
                                          const ExecutionContext& context);

 private:
  std::vector<TestResult> RunCTest(const TestRunInput& input, const ExecutionContext& context);
  TestResult RunCommand(const TestRunInput& input, const TestCommand& command, const ExecutionContext& context);
  ProcessLauncher& launcher_;
};

// Last `max_bytes` of a test's output, cut at a line start when possible.
std::string OutputExcerpt(const std::string& output, size_t max_bytes = 2048);

// Tests a user would run that the build files name, for builds with neither manifest test commands nor
// ctest: per Makefile build root, its `test`, else `check`, else `run` target (`make -C ROOT TARGET`), named
// "make run" (or "samples/scan: make run" for a root below the top). Each is `discovered` (FAIL lines fail it).
std::vector<TestCommand> DiscoveredTests(const std::filesystem::path& source_dir, const std::vector<BuildRoot>& roots,
                                         const std::string& arch, const std::filesystem::path& hipcc);
// True when a line of `output` reads FAIL or FAILED (alone or followed by punctuation or text: "FAIL: x"), or it
// reports a GPU runtime error (an illegal memory access, a launch failure, "CUDA error"/"HIP error").
bool OutputSaysFail(const std::string& output);

// Whether Run runs ctest: the manifest's tests.ctest, else for CMake builds without test commands.
bool RunsCTest(const Manifest* manifest, bool build_has_ctest);
// Test names from `ctest --show-only=json-v1` output.
absl::StatusOr<std::vector<std::string>> ParseCTestTestList(const std::string& json);

std::string ToJUnitXml(const std::string& suite_name, const std::vector<TestResult>& results);
// ctest --output-junit files (and our own): one TestResult per <testcase>.
std::vector<TestResult> ParseJUnitXml(const std::string& xml, const std::string& arch);

}  // namespace hipforge::validate
