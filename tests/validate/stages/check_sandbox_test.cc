#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class CheckSandboxTest : public ValidatorStageTest {};

TEST_F(CheckSandboxTest, OffMeansNoProbeAndNoWarning) {
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().CheckSandbox(state).ok());
  EXPECT_FALSE(state.sandbox_ok);
  EXPECT_TRUE(state.report.gpu.warnings.empty());
  EXPECT_TRUE(launcher_.specs.empty());
}

TEST_F(CheckSandboxTest, AFailedProbeIsSaidInTheReport) {
  if (!std::filesystem::exists("/usr/bin/bwrap")) GTEST_SKIP() << "bubblewrap not installed";
  options_.use_sandbox = true;
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 1, .standard_error = "no user namespaces"};
  };
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().CheckSandbox(state).ok());
  EXPECT_FALSE(state.sandbox_ok);
  ASSERT_EQ(state.report.gpu.warnings.size(), 1u);
  EXPECT_NE(state.report.gpu.warnings[0].find("without a sandbox"), std::string::npos);
  ASSERT_EQ(launcher_.specs.size(), 1u);
  EXPECT_EQ(launcher_.specs[0].argv.front(), "/usr/bin/bwrap");

  launcher_.answer = nullptr;  // exit 0
  Validator::State& working = MakeState();
  ASSERT_TRUE(validator_->CheckSandbox(working).ok());
  EXPECT_TRUE(working.sandbox_ok);
  EXPECT_TRUE(working.report.gpu.warnings.empty());
}

}  // namespace
}  // namespace hipforge::validate::testing
