#include "worker/translate/repo/stages/check_trees.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

absl::Status Check(const fs::path& input, const fs::path& output, CheckedTrees* checked = nullptr) {
  const MigrationOptions options;
  const ProgressCallback progress;
  MigrationState state(input, output, options, progress);
  RecordingLauncher launcher;
  const TranslatorFactory translators;
  const AnalyzerFactory analyzers;
  const EffortEstimator effort;
  const RewriterRegistry rewriters;
  absl::Status status = CheckTrees(state, {launcher, translators, analyzers, effort, rewriters});
  if (checked != nullptr && state.trees.has_value()) *checked = *state.trees;
  return status;
}

TEST(CheckTreesTest, InputMustBeADirectory) {
  TempDir temp;
  std::ofstream(temp.path() / "file") << "x";
  EXPECT_EQ(Check(temp.path() / "missing", temp.path() / "out").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Check(temp.path() / "file", temp.path() / "out").code(), absl::StatusCode::kInvalidArgument);
}

TEST(CheckTreesTest, OutputInsideInputIsRejected) {
  TempDir temp;
  fs::create_directories(temp.path() / "in");
  EXPECT_EQ(Check(temp.path() / "in", temp.path() / "in/out").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Check(temp.path() / "in", temp.path() / "in").code(), absl::StatusCode::kInvalidArgument);
  // A sibling whose name starts like the input is not inside it.
  EXPECT_TRUE(Check(temp.path() / "in", temp.path() / "in2").ok());
}

TEST(CheckTreesTest, OutputMustBeEmptyOrAbsent) {
  TempDir temp;
  fs::create_directories(temp.path() / "in");
  fs::create_directories(temp.path() / "empty");
  fs::create_directories(temp.path() / "full");
  std::ofstream(temp.path() / "full/a") << "a";
  EXPECT_EQ(Check(temp.path() / "in", temp.path() / "full").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(Check(temp.path() / "in", temp.path() / "empty").ok());
}

TEST(CheckTreesTest, BothTreesBecomeCanonical) {
  TempDir temp;
  fs::create_directories(temp.path() / "in/sub");
  CheckedTrees checked;
  ASSERT_TRUE(Check(temp.path() / "in/sub/..", temp.path() / "x/../out", &checked).ok());
  EXPECT_EQ(checked.input, fs::weakly_canonical(temp.path() / "in"));
  EXPECT_EQ(checked.output, fs::weakly_canonical(temp.path() / "out"));
}

}  // namespace
}  // namespace hipforge::translate::testing
