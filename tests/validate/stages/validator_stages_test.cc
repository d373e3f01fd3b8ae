// Validator::Validate is its list of stages (Validator::Stages(), common/pipeline.h): the order is the contract the
// stage tests rely on; a cancelled job stops the run between stages, and a failing stage is named on its error.
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class ValidatorStagesTest : public ValidatorStageTest {};

TEST_F(ValidatorStagesTest, ValidateIsTheListOfStagesInOrder) {
  std::vector<std::string> names;
  const Pipeline<Validator::State> stages = MakeValidator().Stages();
  for (const auto& stage : stages.stages()) names.emplace_back(stage.name);
  EXPECT_EQ(names, (std::vector<std::string>{"LoadInputs", "CheckSandbox", "SelectToolchains", "BuildArchs",
                                             "BuildCudaReference", "LeaseGpu", "ChooseRunBuild", "RunTests",
                                             "RunCudaReference", "CheckParity", "RunOtherBuilds", "Profile"}));
}

TEST_F(ValidatorStagesTest, ACancelledJobStopsBeforeTheFirstStage) {
  const std::atomic<bool> cancelled{true};
  request_.cancelled = &cancelled;
  request_.translated_tree = work_.path() / "missing";  // LoadInputs would refuse it
  const absl::StatusOr<ValidationReport> report = MakeValidator().Validate(request_, nullptr);
  EXPECT_EQ(report.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(report.status().message(), "validation stopped: the job was cancelled");
  EXPECT_EQ(FailedStage(report.status()), "");
}

TEST_F(ValidatorStagesTest, AFailingStageEndsTheRunNamedOnItsError) {
  request_.translated_tree = work_.path() / "missing";
  const absl::StatusOr<ValidationReport> report = MakeValidator().Validate(request_, nullptr);
  EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FailedStage(report.status()), "LoadInputs");
  EXPECT_TRUE(launcher_.specs.empty()) << "nothing after LoadInputs ran";
}

}  // namespace
}  // namespace hipforge::validate::testing
