#include "worker/translate/repo/stages/compose_translations.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

Finding WithFix(const std::string& path, uint32_t offset) {
  Finding finding;
  finding.rule_id = "HB101";
  finding.location = {path, 1, 1};
  finding.edits = {TextEdit{.offset = offset, .length = 0, .replacement = "x"}};
  return finding;
}

class ComposeTranslationsTest : public StageTest {
 protected:
  void SetUp() override {
    auto translator = std::make_unique<FakeTranslator>();
    translator_ = translator.get();
    state_.engines->translator = std::move(translator);
    Add("a.cu", RepoFileKind::kCudaSource, "");
    Add("ext/op.cu", RepoFileKind::kCudaSource, "");
    Add("Makefile", RepoFileKind::kMakefile, "");
    state_.plan->extension_sources = {"ext/op.cu"};
    state_.parse->parsed = ParsedSources{state_.trees->input, {"a.cu"}, nullptr};
    state_.analysis->findings = {WithFix("a.cu", 4), WithFix("ext/op.cu", 5), WithFix("Makefile", 6)};
    state_.analysis->findings.push_back(state_.analysis->findings[0]);
    state_.analysis->findings.back().edits.clear();  // a finding without a fix
    state_.analysis->annotations["a.cu"] = {
        TextEdit{.offset = 0, .length = 0, .replacement = "// HIPFORGE HB101: ...\n"}};
    state_.analysis->annotations["Makefile"] = {TextEdit{.offset = 0, .length = 0, .replacement = "# no\n"}};
  }
  FakeTranslator* translator_ = nullptr;
};

TEST_F(ComposeTranslationsTest, SafeFixesAndAnnotationsOfTranslatedFilesGoToTheTranslator) {
  ASSERT_TRUE(ComposeTranslations(state_, Tools()).ok());
  ASSERT_EQ(translator_->composed_edits.size(), 1u) << "only a.cu: the extension source and the Makefile are not "
                                                       "the translator's";
  const std::vector<TextEdit>& edits = translator_->composed_edits.at("a.cu");
  ASSERT_EQ(edits.size(), 2u);
  EXPECT_EQ(edits[0].offset, 4u);
  EXPECT_EQ(edits[1].replacement, "// HIPFORGE HB101: ...\n");
  EXPECT_TRUE(state_.analysis->findings[0].auto_fixed);
  EXPECT_FALSE(state_.analysis->findings[1].auto_fixed);
  EXPECT_FALSE(state_.analysis->findings[2].auto_fixed);
  EXPECT_FALSE(state_.analysis->findings[3].auto_fixed) << "no fix, nothing applied";
  ASSERT_EQ(state_.translations->by_path.count("a.cu"), 1u);
  EXPECT_EQ(state_.translations->by_path["a.cu"].output, "// hip\na.cu");
}

TEST_F(ComposeTranslationsTest, WithoutApplyFixesOnlyAnnotationsGo) {
  options_.apply_fixes = false;
  ASSERT_TRUE(ComposeTranslations(state_, Tools()).ok());
  ASSERT_EQ(translator_->composed_edits.at("a.cu").size(), 1u);
  EXPECT_FALSE(state_.analysis->findings[0].auto_fixed);
}

TEST_F(ComposeTranslationsTest, NothingParsedNothingComposed) {
  state_.parse->parsed.reset();
  ASSERT_TRUE(ComposeTranslations(state_, Tools()).ok());
  EXPECT_TRUE(state_.translations->by_path.empty());
  EXPECT_FALSE(state_.analysis->findings[0].auto_fixed);
}

}  // namespace
}  // namespace hipforge::translate::testing
