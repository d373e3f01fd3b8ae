#include "worker/translate/repo/stages/collect_findings.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

Finding At(const std::string& rule, const std::string& path, uint32_t line) {
  Finding finding;
  finding.rule_id = rule;
  finding.severity = Severity::kWarning;
  finding.location = {path, line, 1};
  return finding;
}

class CollectFindingsTest : public StageTest {
 protected:
  void SetUp() override {
    state_.analysis->findings = {At("HB501", "Makefile", 2), At("HB501", "Makefile", 3), At("HB101", "k.cu", 1)};
    state_.rewrites->by_path["Makefile"] = {
        .changed_by = {"HB501"},
        .notes = {{.origin = "HB501", .line = 2, .message = "same line as the analyzer's"},
                  {.origin = "HB503", .line = 5, .message = "mapped"},
                  {.origin = "HB504", .line = 6, .message = "check", .left_for_person = true},
                  {.origin = "makefile", .line = 7, .message = "no rule id"}},
        .changed_lines = {2}};
    FileTranslation translation{.path = "k.cu", .diagnostics = {At("HB900", "k.cu", 4)}};
    state_.translations->by_path["k.cu"] = translation;
  }
};

TEST_F(CollectFindingsTest, AnalyzerFindingsTranslatorDiagnosticsAndRuleNotesOnceEach) {
  ASSERT_TRUE(CollectFindings(state_, Tools()).ok());
  const std::vector<Finding>& findings = state_.result.findings;
  ASSERT_EQ(findings.size(), 6u);
  EXPECT_TRUE(findings[0].auto_fixed) << "its line changed under the same rule";
  EXPECT_EQ(findings[0].fix, "same line as the analyzer's") << "the rewriter's note says what it did";
  EXPECT_FALSE(findings[1].auto_fixed) << "line 3 was not changed";
  EXPECT_FALSE(findings[2].auto_fixed);
  EXPECT_EQ(findings[3].rule_id, "HB900");
  EXPECT_EQ(findings[4].rule_id, "HB503");
  EXPECT_EQ(findings[4].severity, Severity::kNote);
  EXPECT_TRUE(findings[4].auto_fixed);
  EXPECT_EQ(findings[4].fix, "rewritten by the repository pass");
  EXPECT_EQ(findings[5].rule_id, "HB504");
  EXPECT_EQ(findings[5].severity, Severity::kWarning);
  EXPECT_FALSE(findings[5].auto_fixed);
  EXPECT_EQ(findings[5].location.line, 6u);
  ASSERT_EQ(state_.result.translations.size(), 1u);
  EXPECT_EQ(state_.result.translations[0].path, "k.cu");
}

TEST_F(CollectFindingsTest, ALineTheRewriterLeftForAPersonIsNotFixed) {
  // scripts/run.sh: `nvidia-smi --query-gpu=...` became amd-smi, but nvidia-smi's options do not carry over.
  state_.analysis->findings = {At("HB504", "run.sh", 8), At("HB504", "run.sh", 9)};
  state_.rewrites->by_path = {};
  state_.rewrites->by_path["run.sh"] = {.changed_by = {"HB504"},
                                        .notes = {{.origin = "HB504", .line = 8, .message = "nvidia-smi -> amd-smi"},
                                                  {.origin = "HB504",
                                                   .line = 9,
                                                   .message = "nvidia-smi -> amd-smi: check the arguments",
                                                   .left_for_person = true}},
                                        .changed_lines = {8, 9}};
  state_.translations->by_path.clear();
  ASSERT_TRUE(CollectFindings(state_, Tools()).ok());
  const std::vector<Finding>& findings = state_.result.findings;
  ASSERT_EQ(findings.size(), 2u) << "each line's finding once";
  EXPECT_TRUE(findings[0].auto_fixed) << "the rename is the whole fix on line 8";
  EXPECT_FALSE(findings[1].auto_fixed) << "line 9 changed, but its arguments are left for a person";
  EXPECT_EQ(findings[1].fix, "nvidia-smi -> amd-smi: check the arguments");
}

// The translator reports in every #if branch; lines the analyzer found dropped by the build mark its diagnostics
// inactive (listed, not charged).
TEST_F(CollectFindingsTest, TranslatorDiagnosticsInLinesTheBuildDropsAreInactive) {
  state_.analysis->files = {{.path = "k.cu", .kind = "cuda-source", .ast_analyzed = true, .inactive_lines = {{3, 5}}}};
  state_.translations->by_path["k.cu"].diagnostics.push_back(At("TR001", "k.cu", 9));
  ASSERT_TRUE(CollectFindings(state_, Tools()).ok());
  std::map<uint32_t, bool> inactive;
  for (const Finding& finding : state_.result.findings) {
    if (finding.location.path == "k.cu") inactive[finding.location.line] = finding.inactive;
  }
  EXPECT_EQ(inactive, (std::map<uint32_t, bool>{{1, false}, {4, true}, {9, false}}));
}

TEST_F(CollectFindingsTest, WithoutAnAnalyzerTheFindingsAreOnlyCounted) {
  bool estimated = false;
  effort_estimator_ = [&](const std::vector<Finding>&, const std::vector<FileTranslation>&) {
    estimated = true;
    return EffortEstimate{};
  };
  ASSERT_TRUE(CollectFindings(state_, Tools()).ok());
  EXPECT_FALSE(estimated) << "no analyzer: its findings are incomplete";
  EXPECT_EQ(state_.result.effort.by_severity["warning"], 5);
  EXPECT_EQ(state_.result.effort.by_severity["note"], 1);
}

TEST_F(CollectFindingsTest, WithAnAnalyzerTheEstimatorSeesEveryFindingAndTranslation) {
  state_.engines->analyzer = std::make_unique<FakeAnalyzer>();
  size_t findings_seen = 0, translations_seen = 0;
  effort_estimator_ = [&](const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations) {
    findings_seen = findings.size();
    translations_seen = translations.size();
    EffortEstimate effort;
    effort.by_severity["estimated"] = 1;
    return effort;
  };
  ASSERT_TRUE(CollectFindings(state_, Tools()).ok());
  EXPECT_EQ(findings_seen, 6u);
  EXPECT_EQ(translations_seen, 1u);
  EXPECT_EQ(state_.result.effort.by_severity, (std::map<std::string, int>{{"estimated", 1}}));
}

}  // namespace
}  // namespace hipforge::translate::testing
