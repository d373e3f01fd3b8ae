// One golden test per rule: tests/analyze/rules/<ID>/ holds the inputs (positives and negatives that must stay
// silent), expected.txt (every finding of every rule) and, for rules with automatic fixes, fixed.cu (the input
// with the fixes applied), which must also compile with hipcc for gfx90a.
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/analyze/test_support.h"
#include "tests/support/compiler_tmp.h"
#include "tests/support/scratch_dir.h"

namespace hipforge::translate {
namespace {

using testing::AnalyzeDir;
using testing::ApplyEdits;
using testing::ReadText;
using testing::RuleDir;

class RuleGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleGoldenTest, FindsExactlyTheExpectedFindings) {
  const auto dir = RuleDir(GetParam());
  ASSERT_TRUE(std::filesystem::exists(dir / "expected.txt")) << "every rule needs a golden directory: " << dir;
  const AnalysisResult result = AnalyzeDir(dir);
  EXPECT_EQ(testing::FindingKeys(result.findings), testing::ExpectedFindings(dir));
  bool rule_fired = false;
  for (const Finding& finding : result.findings) {
    rule_fired |= finding.rule_id == GetParam();
    EXPECT_FALSE(finding.message.empty());
    EXPECT_FALSE(finding.fix.empty());
  }
  EXPECT_TRUE(rule_fired) << GetParam() << " must have positive cases";
}

// HIPFORGE_UPDATE_GOLDEN=1 writes fixed.cu from the analyzer's edits (review the diff before committing it).
TEST_P(RuleGoldenTest, FixesProduceTheExpectedOutput) {
  const auto dir = RuleDir(GetParam());
  const bool update = std::getenv("HIPFORGE_UPDATE_GOLDEN") != nullptr;
  if (!update && !std::filesystem::exists(dir / "fixed.cu")) GTEST_SKIP() << GetParam() << " has no automatic fixes";
  const AnalysisResult result = AnalyzeDir(dir);
  const EditsByFile edits = CollectFixEdits(result, /*with_annotations=*/false);
  if (update && edits.count("input.cu")) {
    std::ofstream(dir / "fixed.cu") << ApplyEdits(ReadText(dir / "input.cu"), edits.at("input.cu"));
  }
  if (update && !edits.count("input.cu")) GTEST_SKIP() << GetParam() << " has no automatic fixes";
  ASSERT_TRUE(edits.count("input.cu"));
  EXPECT_EQ(ApplyEdits(ReadText(dir / "input.cu"), edits.at("input.cu")), ReadText(dir / "fixed.cu"));
}

// Compiles the analyzer's fixed output (not the golden file) for gfx90a with Debian's hipcc 5.2. The
// compatibility header stands in for the translator's HIP 5.2 output (it drops *_sync masks, but insists they
// are 64-bit as HIP 6.2+ does).
absl::StatusOr<ProcessResult> CompileForGfx90a(const std::string& source, const std::string& name,
                                               const std::string& arch = "gfx90a") {
  const hipforge::testing::ScratchDir scratch("analyzer-" + name);
  const auto& work = scratch.path();
  {
    std::ofstream out(work / "fixed.cu");
    out << source;
  }
  ProcessSpec spec;
  spec.argv = {"hipcc",
               "--offload-arch=" + arch,
               "-c",
               "-x",
               "hip",
               "-I" + (testing::SourceDir() / "tests/analyze/hip_compat").string(),
               (work / "fixed.cu").string(),
               "-o",
               (work / "fixed.o").string()};
  spec.timeout = std::chrono::minutes(5);
  BoostProcessLauncher launcher;
  return hipforge::testing::RunWithPrivateTmp(launcher, spec, work);
}

TEST_P(RuleGoldenTest, FixedOutputCompilesForGfx90a) {
  const auto dir = RuleDir(GetParam());
  if (!std::filesystem::exists(dir / "fixed.cu")) GTEST_SKIP() << GetParam() << " has no automatic fixes";
  if (std::filesystem::exists(dir / "compile.skip")) GTEST_SKIP() << ReadText(dir / "compile.skip");
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  const AnalysisResult result = AnalyzeDir(dir);
  const EditsByFile edits = CollectFixEdits(result, false);
  ASSERT_TRUE(edits.count("input.cu"));
  auto compiled = CompileForGfx90a(ApplyEdits(ReadText(dir / "input.cu"), edits.at("input.cu")), GetParam());
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_EQ(compiled->exit_code, 0) << compiled->standard_error;
}

// The compile check has teeth: without the HB102 fix the 32-bit mask is rejected.
TEST(FixCompileCheck, UnfixedLaneMaskDoesNotCompile) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  auto compiled = CompileForGfx90a(ReadText(RuleDir("HB102") / "input.cu"), "HB102-unfixed");
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  EXPECT_NE(compiled->exit_code, 0);
  EXPECT_NE(compiled->standard_error.find("64-bit"), std::string::npos) << compiled->standard_error;
}

// HB206's purpose: MI300 has no texture path. Debian's hipcc has gfx940 (the MI300 family's first member) but
// not gfx942; its backend rejects image instructions for it, and the fixed golden builds for it.
TEST(FixCompileCheck, TextureFixBuildsForMi300WhereTexturesDoNot) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  auto texture = CompileForGfx90a(
      "#include <hip/hip_runtime.h>\n__global__ void k(hipTextureObject_t t, float* o) "
      "{ o[0] = tex2D<float>(t, 0.5f, 0.5f); }\n",
      "HB206-texture", "gfx940");
  ASSERT_TRUE(texture.ok()) << texture.status();
  EXPECT_NE(texture->exit_code, 0);
  const AnalysisResult result = AnalyzeDir(RuleDir("HB206"));
  const EditsByFile edits = CollectFixEdits(result, false);
  ASSERT_TRUE(edits.count("input.cu"));
  auto fixed = CompileForGfx90a(ApplyEdits(ReadText(RuleDir("HB206") / "input.cu"), edits.at("input.cu")),
                                "HB206-gfx940", "gfx940");
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_EQ(fixed->exit_code, 0) << fixed->standard_error;
}

// Without a gfx94x target the rule is silent: MI250 (gfx90a) has textures.
TEST(Mi300TextureRule, SilentWithoutGfx94xTarget) {
  AnalyzeOptions options;
  options.target_architectures = {"gfx90a"};
  const AnalysisResult result = AnalyzeDir(RuleDir("HB206"), options);
  for (const Finding& finding : result.findings) EXPECT_NE(finding.rule_id, "HB206") << finding.location.line;
  EXPECT_EQ(result.files.size(), 2u);  // both inputs were analyzed
}

// The same for OCP fp8: gfx90a has no fp8 at all in device code, which HB207 does not claim to cover, and
// gfx950/gfx12 convert OCP fp8 in device code.
TEST(Mi300OcpFp8Rule, SilentWithoutGfx94xTarget) {
  AnalyzeOptions options;
  options.target_architectures = {"gfx90a", "gfx950"};
  const AnalysisResult result = AnalyzeDir(RuleDir("HB207"), options);
  for (const Finding& finding : result.findings) EXPECT_NE(finding.rule_id, "HB207") << finding.location.line;
  EXPECT_EQ(result.files.size(), 3u);  // input.cu, own_types.cuh, vendor_alias.cuh
}

std::vector<std::string> AllRuleIds() {
  std::vector<std::string> ids;
  for (const auto& rule : RuleCatalog()) ids.push_back(rule.id);
  return ids;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleGoldenTest, ::testing::ValuesIn(AllRuleIds()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace hipforge::translate
