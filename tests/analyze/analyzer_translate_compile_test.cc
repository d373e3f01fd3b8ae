// The analyzer's automatic fixes as users get them: the REAL translator (worker/translate/core, as
// `migrate-cli translate` runs it with fixes on) translates each fix golden input together with the analyzer's
// edits, and Debian's hipcc compiles the result for gfx90a. No stand-in headers: the translator's own output
// (hip/hip_runtime.h, HIP 5.2 spellings) must build.
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/analyze/test_support.h"
#include "tests/support/compiler_tmp.h"
#include "tests/support/scratch_dir.h"
#include "worker/translate/core/source_translator.h"

namespace hipforge::translate {
namespace {

using testing::AnalyzeDir;
using testing::RuleDir;

// Warp intrinsics that Debian's HIP 5.2 does not declare at all (they came with HIP 6.x) and that the
// translator leaves when it cannot prove the mask full (`__activemask()`, partial masks, `__syncwarp`). They
// are in the golden inputs' negative cases, not in any fix; see the report of 29 Nov for the translator.
const std::regex kHip52Gap(
    "use of undeclared identifier '(__activemask|__syncwarp|__shfl_sync|__shfl_up_sync|__shfl_down_sync|"
    "__shfl_xor_sync|__ballot_sync|__any_sync|__all_sync)'");

// Compile errors not explained by kHip52Gap (an empty list means the fixed, translated file builds).
std::vector<std::string> UnexplainedErrors(const std::string& compiler_output) {
  std::vector<std::string> errors;
  std::istringstream lines(compiler_output);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": error: ") == std::string::npos) continue;
    if (!std::regex_search(line, kHip52Gap)) errors.push_back(line);
  }
  return errors;
}

class TranslatedFixTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TranslatedFixTest, TranslatorOutputWithFixesCompilesForGfx90a) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  const auto dir = RuleDir(GetParam());
  ASSERT_TRUE(std::filesystem::exists(dir / "fixed.cu"));
  const AnalysisResult analysis = AnalyzeDir(dir);
  const EditsByFile fixes = CollectFixEdits(analysis, /*with_annotations=*/false);
  ASSERT_TRUE(fixes.count("input.cu")) << GetParam() << " made no fixes";

  const hipforge::testing::ScratchDir scratch("translated-fix-" + GetParam());
  const auto& work = scratch.path();
  TranslateOptions options;
  options.target_hip_version = {5, 2};  // Debian's hipcc 5.2.3
  options.jobs = 1;
  options.pch_directory = work / "pch";
  auto translator = CreateSourceTranslator(options);
  ASSERT_TRUE(translator.ok()) << translator.status();
  auto translated = (*translator)->Translate(dir, {std::filesystem::path("input.cu")}, fixes, nullptr);
  ASSERT_TRUE(translated.ok()) << translated.status();
  ASSERT_EQ(translated->size(), 1u);
  const FileTranslation& file = translated->front();
  ASSERT_NE(file.status, FileStatus::kFailed) << file.fallback_reason;
  EXPECT_TRUE(file.changed_by.count(GetParam())) << "the " << GetParam() << " fixes did not reach the output";
  {
    std::ofstream out(work / "translated.hip");
    out << file.output;
  }
  ProcessSpec spec;
  spec.argv = {"hipcc", "--offload-arch=gfx90a",         "-c", "-x", "hip", (work / "translated.hip").string(),
               "-o",    (work / "translated.o").string()};
  spec.timeout = std::chrono::minutes(5);
  BoostProcessLauncher launcher;
  auto compiled = hipforge::testing::RunWithPrivateTmp(launcher, spec, work);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const auto unexplained = UnexplainedErrors(compiled->standard_error + compiled->standard_output);
  EXPECT_TRUE(unexplained.empty()) << unexplained.front() << "\n"
                                   << compiled->standard_error << "\n--- translated source ---\n"
                                   << file.output;
  if (compiled->exit_code != 0) {
    EXPECT_FALSE(compiled->standard_error.empty());
    std::cout << "note: " << GetParam() << " compiles except for HIP 5.2 gaps in untouched input lines:\n"
              << compiled->standard_error;
  }
}

INSTANTIATE_TEST_SUITE_P(FixRules, TranslatedFixTest,
                         ::testing::Values("HB101", "HB102", "HB103", "HB104", "HB201", "HB206"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace hipforge::translate
