#include "worker/translate/repo/stages/create_translator_and_analyzer.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

class CreateTranslatorAndAnalyzerTest : public StageTest {};

TEST_F(CreateTranslatorAndAnalyzerTest, NoTranslatorIsAnErrorOnlyWhenAFileUsesCuda) {
  ASSERT_TRUE(CreateTranslatorAndAnalyzer(state_, Tools()).ok());
  EXPECT_EQ(state_.engines->translator, nullptr);

  state_.plan->needs_translator = {"a.cu", "b.cu"};
  const absl::Status status = CreateTranslatorAndAnalyzer(state_, Tools());
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "2 file(s) use CUDA (first: a.cu) but cannot be translated: no translator in this test");
}

TEST_F(CreateTranslatorAndAnalyzerTest, WithoutAnAnalyzerTheFindingsAreIncomplete) {
  translator_factory_ = [](TranslateOptions) -> absl::StatusOr<std::unique_ptr<SourceTranslator>> {
    return std::make_unique<FakeTranslator>();
  };
  ASSERT_TRUE(CreateTranslatorAndAnalyzer(state_, Tools()).ok());
  EXPECT_NE(state_.engines->translator, nullptr);
  EXPECT_EQ(state_.engines->analyzer, nullptr);
  EXPECT_EQ(state_.result.notes, std::vector<std::string>{"findings incomplete: no analyzer in this test"});
}

TEST_F(CreateTranslatorAndAnalyzerTest, TheAnalyzerGetsTheTranslatorsFrontEndAndThePassOptions) {
  state_.unit_arguments->translate_options.frontend.extra_args = {"-DFROM_THE_JOB"};
  options_.analyze.frontend.shim_directory = "/analyzer/shims";
  options_.annotate = true;
  options_.hip_architectures = {"gfx942"};
  TranslateOptions translator_got;
  AnalyzeOptions analyzer_got;
  translator_factory_ = [&](TranslateOptions options) -> absl::StatusOr<std::unique_ptr<SourceTranslator>> {
    translator_got = options;
    return std::make_unique<FakeTranslator>();
  };
  analyzer_factory_ = [&](AnalyzeOptions options) -> absl::StatusOr<std::unique_ptr<Analyzer>> {
    analyzer_got = options;
    return std::make_unique<FakeAnalyzer>();
  };
  ASSERT_TRUE(CreateTranslatorAndAnalyzer(state_, Tools()).ok());
  EXPECT_NE(state_.engines->analyzer, nullptr);
  EXPECT_TRUE(state_.result.notes.empty());
  EXPECT_EQ(translator_got.frontend.extra_args, std::vector<std::string>{"-DFROM_THE_JOB"});
  EXPECT_EQ(analyzer_got.frontend.extra_args, std::vector<std::string>{"-DFROM_THE_JOB"});
  EXPECT_EQ(analyzer_got.frontend.shim_directory, "/analyzer/shims") << "its own shims stay";
  EXPECT_TRUE(analyzer_got.annotate);
  EXPECT_EQ(analyzer_got.target_architectures, std::vector<std::string>{"gfx942"});
}

}  // namespace
}  // namespace hipforge::translate::testing
