#include "worker/validate_runner.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
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

}  // namespace

absl::StatusOr<TaskOutput> ValidateTaskRunner::Run(const TaskContext& context) {
  validate::ValidationRequest request;
  request.job_id = context.job_id;
  request.translated_tree = context.input_root;
  request.requested_archs.assign(context.spec.targets().begin(), context.spec.targets().end());
  if (request.requested_archs.empty()) request.requested_archs = {"gfx90a"};
  request.work_dir = context.work_dir / "validate";
  StepSink sink(context.progress);
  absl::StatusOr<validate::ValidationReport> report = validator_.Validate(request, &sink);
  if (!report.ok()) return report.status();

  TaskOutput output;
  nlohmann::json json = validate::ToJson(*report);
  json["job_id"] = context.job_id;
  output.report_json = json.dump();
  int builds_ok = 0;
  for (const auto& build : json.value("builds", nlohmann::json::array())) builds_ok += build.value("ok", false) ? 1 : 0;
  output.summary = absl::StrCat(builds_ok, " of ", json.value("builds", nlohmann::json::array()).size(),
                                " builds succeeded");
  return output;
}

}  // namespace hipforge::worker
