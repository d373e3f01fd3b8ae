#include "worker/translate/repo/stages/cupy_snippet.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

TEST(CupySnippetTest, TheSnippetGoesThroughTheTranslatorAndLosesTheRuntimeInclude) {
  FakeTranslator translator;
  translator.snippet.status = FileStatus::kTranslated;
  translator.snippet.output =
      "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1\n#include <hip/hip_runtime.h>\n\n"
      "extern \"C\" __global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffffffffffff, x[0], 1); }\n";
  const std::string source =
      "\n\nextern \"C\" __global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffff, x[0], 1); }\n";
  const auto translated = CupySnippetTranslator(translator)(source);
  EXPECT_EQ(translator.translated_source, source) << "the translator saw the snippet as a file";
  ASSERT_TRUE(translated);
  // The source's leading blank lines, the warp-sync define once, then the translated body.
  EXPECT_EQ(*translated,
            "\n\n#define HIP_ENABLE_WARP_SYNC_BUILTINS 1\n"
            "extern \"C\" __global__ void k(float* x) { x[0] = __shfl_xor_sync(0xffffffffffffffff, x[0], 1); }\n");
}

TEST(CupySnippetTest, ASnippetThatIncludesTheRuntimeItselfKeepsIt) {
  FakeTranslator translator;
  translator.snippet.output = "#include <hip/hip_runtime.h>\n__global__ void k() {}\n";
  const auto translated = CupySnippetTranslator(translator)("#include <hip/hip_runtime.h>\n__global__ void k() {}\n");
  ASSERT_TRUE(translated);
  EXPECT_EQ(*translated, translator.snippet.output);
}

TEST(CupySnippetTest, AFailedTranslationGivesNothing) {
  FakeTranslator translator;
  translator.snippet.status = FileStatus::kFailed;
  EXPECT_FALSE(CupySnippetTranslator(translator)("__global__ void k() {}\n"));
}

}  // namespace
}  // namespace hipforge::translate::testing
