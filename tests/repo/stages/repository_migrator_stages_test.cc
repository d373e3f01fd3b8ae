// RepositoryMigrator::Run is its list of stages: the order is the contract the stage tests rely on (each stage
// reads what the earlier ones left in MigrationState). The pass end to end is tests/repo/repository_migration_test.cc.
#include "worker/translate/repo/repository_migrator.h"

#include "tests/repo/stages/stage_test_support.h"

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

TEST(RepositoryMigratorStagesTest, ATreeWithoutCudaPassesEveryStageWithFakes) {
  RecordingLauncher launcher;  // the patch's diff answers exit 0: "no differences"
  int analyzers_made = 0;
  RepositoryMigrator migrator(
      launcher, [](TranslateOptions) -> absl::StatusOr<std::unique_ptr<SourceTranslator>> {
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
