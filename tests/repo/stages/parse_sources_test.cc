#include "worker/translate/repo/stages/parse_sources.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

class ParseSourcesTest : public StageTest {
 protected:
  FakeTranslator& UseTranslator() {
    auto translator = std::make_unique<FakeTranslator>();
    FakeTranslator& raw = *translator;
    state_.engines->translator = std::move(translator);
    return raw;
  }
  FakeAnalyzer& UseAnalyzer() {
    auto analyzer = std::make_unique<FakeAnalyzer>();
    FakeAnalyzer& raw = *analyzer;
    state_.engines->analyzer = std::move(analyzer);
    return raw;
  }
};

TEST_F(ParseSourcesTest, TheAnalyzersCompanionRidesOnTheTranslatorsParse) {
  FakeTranslator& translator = UseTranslator();
  FakeAnalyzer& analyzer = UseAnalyzer();
  state_.plan->to_translate = {"a.cu", "b.cuh"};
  ASSERT_TRUE(ParseSources(state_, Tools()).ok());
  ASSERT_NE(analyzer.made_companion, nullptr);
  EXPECT_EQ(state_.parse->companion.get(), analyzer.made_companion);
  EXPECT_EQ(translator.parse_companion, analyzer.made_companion);
  EXPECT_EQ(translator.parsed_files, state_.plan->to_translate);
  ASSERT_TRUE(state_.parse->parsed);
  EXPECT_EQ(state_.parse->parsed->root, state_.trees->input);
}

TEST_F(ParseSourcesTest, NothingToTranslateOrNoTranslatorParsesNothing) {
  FakeAnalyzer& analyzer = UseAnalyzer();
  state_.plan->to_translate = {"a.cu"};
  ASSERT_TRUE(ParseSources(state_, Tools()).ok());  // no translator
  EXPECT_FALSE(state_.parse->parsed);
  EXPECT_NE(analyzer.made_companion, nullptr) << "the analyzer parses alone then";

  FakeTranslator& translator = UseTranslator();
  state_.plan->to_translate.clear();
  ASSERT_TRUE(ParseSources(state_, Tools()).ok());
  EXPECT_EQ(translator.parse_calls, 0);
  EXPECT_FALSE(state_.parse->parsed);
}

TEST_F(ParseSourcesTest, AParseErrorEndsThePass) {
  FakeTranslator& translator = UseTranslator();
  translator.parse_error = absl::InvalidArgumentError("not a directory");
  state_.plan->to_translate = {"a.cu"};
  EXPECT_EQ(ParseSources(state_, Tools()).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(translator.parse_companion, nullptr) << "no analyzer, no companion";
  EXPECT_FALSE(state_.parse->parsed);
}

}  // namespace
}  // namespace hipforge::translate::testing
