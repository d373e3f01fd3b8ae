// RepositoryMigrator::Run is its list of stages: the order is the contract the stage tests rely on (each stage
// reads what the earlier ones left in MigrationState). The pass end to end is tests/repo/repository_migration_test.cc.
#include "worker/translate/repo/repository_migrator.h"

#include "tests/repo/stages/stage_test_support.h"
#include "worker/translate/repo/stages/collect_files.h"

namespace hipforge::translate::testing {
namespace {

TEST(RepositoryMigratorStagesTest, RunIsTheListOfStagesInOrder) {
  std::vector<std::string> names;
  for (const auto& [name, stage] : RepositoryMigrator::Stages()) {
    names.emplace_back(name);
    EXPECT_NE(stage, nullptr) << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"CheckTrees", "CollectFiles", "PlanTranslation", "DiscoverUnitArguments",
                                             "CreateTranslatorAndAnalyzer", "ParseSources", "AnalyzeSources",
                                             "ComposeTranslations", "RewriteBuildFiles", "WriteOutputTree",
                                             "CollectFindings", "MakePatch"}));
}

TEST(RepositoryMigratorStagesTest, AFailingStageEndsTheRunWithItsError) {
  RecordingLauncher launcher;
  RepositoryMigrator migrator(launcher, nullptr, nullptr, nullptr, RewriterRegistry());
  TempDir temp;
  // CheckTrees refuses; nothing after it runs (no factory is called: they are empty and would throw).
  const auto result = migrator.Run(temp.path() / "missing", temp.path() / "out", MigrationOptions{}, nullptr);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(temp.path() / "out"));
  EXPECT_TRUE(launcher.specs.empty());
}

TEST(RepositoryMigratorStagesTest, TheFailingStageIsNamedOnTheError) {
  RecordingLauncher launcher;
  RepositoryMigrator migrator(launcher, nullptr, nullptr, nullptr, RewriterRegistry());
  TempDir temp;
  const auto result = migrator.Run(temp.path() / "missing", temp.path() / "out", MigrationOptions{}, nullptr);
  EXPECT_EQ(FailedStage(result.status()), "CheckTrees");
  EXPECT_EQ(result.status().message(), "not a directory: " + (temp.path() / "missing").string());
}

// Each stage output in MigrationState is named after a stage of the list that comes before the first stage that
// reads it; reading one before its stage ran says which stage that is.
TEST(RepositoryMigratorStagesTest, EachStageOutputIsNamedAfterItsStage) {
  const MigrationOptions options;
  MigrationState state("in", "out", options, nullptr);
  std::vector<std::string> names;
  for (const auto& [name, stage] : RepositoryMigrator::Stages()) names.emplace_back(name);
  std::vector<std::string> outputs;
  for (std::string_view stage : {state.trees.stage(), state.files.stage(), state.plan.stage(),
                                 state.unit_arguments.stage(), state.engines.stage(), state.parse.stage(),
                                 state.analysis.stage(), state.translations.stage(), state.rewrites.stage()}) {
    outputs.emplace_back(stage);
  }
  EXPECT_EQ(outputs, std::vector<std::string>(names.begin(), names.begin() + 9)) << "in the order the stages run";

  RecordingLauncher launcher;
  const TranslatorFactory translators;
  const AnalyzerFactory analyzers;
  const EffortEstimator effort;
  const RewriterRegistry rewriters;
  try {
    (void)CollectFiles(state, {launcher, translators, analyzers, effort, rewriters});
    FAIL() << "CollectFiles ran without CheckTrees' output";
  } catch (const std::logic_error& error) {
    EXPECT_EQ(std::string(error.what()), "pipeline: CheckTrees's output read before CheckTrees ran");
  }
}

TEST(RepositoryMigratorStagesTest, ATreeWithoutCudaPassesEveryStageWithFakes) {
  RecordingLauncher launcher;  // the patch's diff answers exit 0: "no differences"
  int analyzers_made = 0;
  RepositoryMigrator migrator(
      launcher,
      [](TranslateOptions) -> absl::StatusOr<std::unique_ptr<SourceTranslator>> {
        return std::make_unique<FakeTranslator>();
      },
      [&](AnalyzeOptions) -> absl::StatusOr<std::unique_ptr<Analyzer>> {
        ++analyzers_made;
        return std::make_unique<FakeAnalyzer>();
      },
      nullptr, RewriterRegistry());
  TempDir temp;
  std::filesystem::create_directories(temp.path() / "in");
  std::ofstream(temp.path() / "in/README.md") << "hello\n";
  const auto result = migrator.Run(temp.path() / "in", temp.path() / "out", MigrationOptions{}, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(analyzers_made, 1);
  ASSERT_EQ(result->files.size(), 1u);
  EXPECT_EQ(result->files[0].status, FileStatus::kCopied);
  EXPECT_EQ(ReadText(temp.path() / "out/README.md"), "hello\n");
  ASSERT_EQ(launcher.specs.size(), 1u) << "only the patch's diff ran";
  EXPECT_EQ(launcher.specs[0].argv.front(), "diff");
}

}  // namespace
}  // namespace hipforge::translate::testing
