#include "worker/translate/repo/stages/analyze_sources.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class AnalyzeSourcesTest : public StageTest {};

TEST_F(AnalyzeSourcesTest, AnalyzesEveryFileButPlainOnesWithTheCompanion) {
  auto owned = std::make_unique<FakeAnalyzer>();
  FakeAnalyzer& analyzer = *owned;
  Finding finding;
  finding.rule_id = "HB101";
  finding.location = {"a.cu", 3, 1};
  analyzer.result.findings = {finding};
  analyzer.result.annotations["a.cu"] = {TextEdit{}};
  state_.engines->analyzer = std::move(owned);
  state_.parse->companion = std::make_unique<FakeCompanion>();
  Add("a.cu", RepoFileKind::kCudaSource, "");
  Add("Makefile", RepoFileKind::kMakefile, "");
  Add("README.md", RepoFileKind::kOther, "");
  ASSERT_TRUE(AnalyzeSources(state_, Tools()).ok());
  EXPECT_EQ(analyzer.analyzed_files, (std::vector<fs::path>{"Makefile", "a.cu"}));
  EXPECT_EQ(analyzer.analyze_companion, state_.parse->companion.get());
  ASSERT_EQ(state_.analysis->findings.size(), 1u);
  EXPECT_EQ(state_.analysis->findings[0].rule_id, "HB101");
  EXPECT_EQ(state_.analysis->annotations.count("a.cu"), 1u);
}

TEST_F(AnalyzeSourcesTest, WithoutAnAnalyzerThereAreNoFindings) {
  Add("a.cu", RepoFileKind::kCudaSource, "");
  ASSERT_TRUE(AnalyzeSources(state_, Tools()).ok());
  EXPECT_TRUE(state_.analysis->findings.empty());
}

TEST_F(AnalyzeSourcesTest, AnAnalyzerErrorEndsThePass) {
  auto analyzer = std::make_unique<FakeAnalyzer>();
  analyzer->error = absl::InternalError("rule crashed");
  state_.engines->analyzer = std::move(analyzer);
  EXPECT_EQ(AnalyzeSources(state_, Tools()).code(), absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace hipforge::translate::testing
