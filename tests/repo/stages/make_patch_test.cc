#include "worker/translate/repo/stages/make_patch.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class MakePatchTest : public StageTest {};

TEST_F(MakePatchTest, ThePatchTurnsTheInputTreeIntoTheOutputTree) {
  Write("a.cu", "cudaMalloc\n");
  Write("same.txt", "x\n");
  fs::create_directories(state_.trees->output);
  std::ofstream(state_.trees->output / "a.cu") << "hipMalloc\n";
  std::ofstream(state_.trees->output / "same.txt") << "x\n";
  BoostProcessLauncher diff;
  const MigrationTools tools{diff, translator_factory_, analyzer_factory_, effort_estimator_, rewriters_};
  ASSERT_TRUE(MakePatch(state_, tools).ok());
  const std::string& patch = state_.result.unified_patch;
  EXPECT_NE(patch.find("+++ b/a.cu"), std::string::npos) << patch;
  EXPECT_NE(patch.find("-cudaMalloc\n+hipMalloc\n"), std::string::npos) << patch;
  EXPECT_EQ(patch.find("same.txt"), std::string::npos) << patch;
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[0].stage, "patch");
  EXPECT_EQ(events_[1].done, 1);
}

TEST_F(MakePatchTest, AFailedDiffEndsThePass) {
  fs::create_directories(state_.trees->output);
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 2, .standard_error = "diff: broken"};
  };
  EXPECT_EQ(MakePatch(state_, Tools()).code(), absl::StatusCode::kInternal);
  ASSERT_EQ(launcher_.specs.size(), 1u);
  EXPECT_EQ(launcher_.specs[0].argv.front(), "diff");
  EXPECT_TRUE(state_.result.unified_patch.empty());
}

}  // namespace
}  // namespace hipforge::translate::testing
