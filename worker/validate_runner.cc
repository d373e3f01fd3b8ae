#include "worker/validate_runner.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/file_io.h"
#include "worker/validate/validator.h"

namespace hipforge::worker {
namespace {

// Adapts the validator's stage/message progress to the job event stream.
class StepSink final : public validate::ProgressSink {
 public:
  explicit StepSink(ProgressReporter& progress) : progress_(progress) {}
  void Report(std::string_view stage, std::string_view message) override {
    progress_.Step(stage, message, "progress", "");
  }

 private:
  ProgressReporter& progress_;
};

// The builds' whole logs (the report keeps only a failed step's excerpt), one per build directory the validator
// made (<work>/<arch> or <toolchain>-<arch>), in name order under a header line each; empty when nothing was built.
std::string CollectBuildLogs(const std::filesystem::path& validate_dir) {
  std::vector<std::filesystem::path> logs;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(validate_dir, error)) {
    if (std::filesystem::is_regular_file(entry.path() / "build.log")) logs.push_back(entry.path() / "build.log");
  }
  std::sort(logs.begin(), logs.end());
  std::string out;
  for (const std::filesystem::path& log : logs) {
    const std::string text = ReadFileBytes(log).value_or("");
    absl::StrAppend(&out, "==== build ", log.parent_path().filename().string(), " ====\n", text,
                    text.empty() || text.back() == '\n' ? "" : "\n");
  }
  return out;
}

}  // namespace

absl::StatusOr<TaskOutput> ValidateTaskRunner::Run(const TaskContext& context) {
  validate::ValidationRequest request;
  request.job_id = context.job_id;
  request.translated_tree = context.input_root;
  request.requested_archs.assign(context.spec.targets().begin(), context.spec.targets().end());
  if (request.requested_archs.empty()) request.requested_archs = {"gfx90a"};
  request.work_dir = context.work_dir / "validate";
  // The submitted CUDA tree: build errors map back to its lines, and the manifest's CUDA reference
  // outputs are read from it (references_dir stays empty: the manifest decides).
  request.original_tree = context.original_root;
  // "6.4.3" and "6.4" both mean the 6.4 release.
  const std::vector<std::string> hip = absl::StrSplit(context.spec.options().hip_version(), '.');
  request.hip_release = hip.size() >= 2 ? absl::StrCat(hip[0], ".", hip[1]) : context.spec.options().hip_version();
  request.managed_memory_found = context.managed_memory_found;
  request.cancelled = &context.abandon;
  StepSink sink(context.progress);
  absl::StatusOr<validate::ValidationReport> report = validator_.Validate(request, &sink);
  if (!report.ok()) return report.status();

  TaskOutput output;
  output.report = validate::ToReport(*report);
  output.report->job_id = context.job_id;
  int builds_ok = 0;
  std::vector<std::string> failed;
  for (const validate::BuildResult& build : report->builds) {
    if (build.ok) {
      ++builds_ok;
    } else {
      failed.push_back(build.arch.empty() || build.arch == build.requested_arch
                           ? build.requested_arch
                           : absl::StrCat(build.requested_arch, " (built as ", build.arch, ")"));
    }
  }
  output.summary = absl::StrCat(builds_ok, " of ", report->builds.size(), " builds succeeded");
  // The whole build log, as an artifact beside the report (migrate-cli and the dashboard download it).
  if (const std::string logs = CollectBuildLogs(request.work_dir); !logs.empty()) {
    const std::filesystem::path file = context.work_dir / "build.log";
    if (absl::Status written = WriteFileBytes(file, logs); !written.ok()) return written;
    output.artifacts.push_back({v1::ARTIFACT_KIND_BUILD_LOG, v1::COMPRESSION_FORMAT_UNSPECIFIED, file});
  }
  // A translation that does not build, fails its tests or computes other numbers is not a successful
  // migration: the job fails (the report and the translation stay). Tests not run are not failures, nor tests that
  // fail in the CUDA original too.
  std::vector<std::string> problems;
  if (!failed.empty()) problems.push_back(absl::StrCat("build failed for ", absl::StrJoin(failed, ", ")));
  int tests_failed = 0, parity_mismatches = 0;
  for (const validate::TestResult& test : report->tests) {
    tests_failed += report::IsMigrationFailure(test);  // one failing in the CUDA original too is not the migration's
  }
  for (const validate::ParityResult& parity : report->parity) {
    parity_mismatches += parity.verdict == validate::ParityVerdict::kMismatch;
  }
  if (tests_failed > 0) problems.push_back(absl::StrCat(tests_failed, " test(s) failed"));
  if (parity_mismatches > 0) problems.push_back(absl::StrCat(parity_mismatches, " parity mismatch(es)"));
  if (!problems.empty()) {
    output.job_failed = true;
    output.summary = absl::StrCat("validation: ", absl::StrJoin(problems, "; "), " (", output.summary, ")");
  }
  return output;
}

}  // namespace hipforge::worker
