// migrate-cli's local modes (no server), through the real binary on the bundled example repository:
// `translate PATH -o OUT` writes the HIP tree, `analyze PATH` reports findings as text/SARIF with
// the documented exit codes (docs/cli.md).
#include <fstream>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/process.h"
#include "tests/support/scratch_dir.h"

namespace hipforge::client {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const fs::path kExample = fs::path(HIPFORGE_SOURCE_DIR) / "examples/cuda-vector-stats";

using ScratchDir = hipforge::testing::ScratchDir;  // tests/support/scratch_dir.h

ProcessResult RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), HIPFORGE_MIGRATE_CLI_BIN);
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = std::move(args);
  spec.timeout = std::chrono::minutes(5);
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(CliLocalModesTest, TranslateWritesTheHipTreeReportAndPatch) {
  ScratchDir scratch("translate");
  const fs::path out = scratch.path() / "hip";
  ProcessResult run = RunCli({"--quiet", "translate", kExample.string(), "-o", out.string(), "--report",
                              (scratch.path() / "report.json").string(), "--patch",
                              (scratch.path() / "translation.patch").string(), "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.standard_error;
  // Every source is there, translated: no CUDA runtime calls or headers left in the kernels' files.
  for (const char* file : {"src/main.cu", "src/elementwise.cu", "src/reductions.cu", "include/vector_stats.cuh",
                           "CMakeLists.txt", "Makefile"}) {
    EXPECT_TRUE(fs::is_regular_file(out / file)) << file;
  }
  const std::string main_cu = ReadFile(out / "src/main.cu");
  EXPECT_THAT(main_cu, HasSubstr("hip"));
  EXPECT_THAT(main_cu, ::testing::Not(HasSubstr("cudaMalloc(")));
  EXPECT_THAT(ReadFile(out / "CMakeLists.txt"), ::testing::Not(HasSubstr("LANGUAGES CXX CUDA")));

  // stdout is the report as JSON; --report wrote the same document.
  const nlohmann::json printed = nlohmann::json::parse(run.standard_output);
  const nlohmann::json written = nlohmann::json::parse(ReadFile(scratch.path() / "report.json"));
  EXPECT_EQ(printed["translation"]["totals"], written["translation"]["totals"]);
  EXPECT_GE(written["translation"]["totals"].value("translated", 0), 3);
  EXPECT_THAT(ReadFile(scratch.path() / "translation.patch"), HasSubstr("+++ b/src/main.cu"));

  // A non-empty output directory is refused (exit 7, "output directory not empty" in docs/cli.md).
  ProcessResult again = RunCli({"--quiet", "translate", kExample.string(), "-o", out.string()});
  EXPECT_EQ(again.exit_code, 7);
  EXPECT_THAT(again.standard_error, HasSubstr("not empty"));
}

// The HIP release translated for is said, with where it came from (a host's old hipcc was picked silently).
TEST(CliLocalModesTest, TranslateSaysWhichHipVersionItTargetsAndWhy) {
  ScratchDir scratch("translate-version");
  ProcessResult chosen = RunCli({"translate", kExample.string(), "-o", (scratch.path() / "a").string(), "--hip-version",
                                 "6.4", "--format", "json"});
  ASSERT_EQ(chosen.exit_code, 0) << chosen.standard_error;
  EXPECT_THAT(chosen.standard_error, HasSubstr("translating for HIP 6.4 (--hip-version)"));
  ProcessResult no_hipcc = RunCli({"translate", kExample.string(), "-o", (scratch.path() / "b").string(), "--hipcc",
                                   (scratch.path() / "no-such-hipcc").string(), "--format", "json"});
  ASSERT_EQ(no_hipcc.exit_code, 0) << no_hipcc.standard_error;
  EXPECT_THAT(no_hipcc.standard_error, HasSubstr("translating for HIP "));
  EXPECT_THAT(no_hipcc.standard_error, HasSubstr("(the translator's default ("));
}

TEST(CliLocalModesTest, AnalyzeWritesSarifAndGatesOnFindings) {
  ScratchDir scratch("analyze");
  const fs::path sarif_path = scratch.path() / "hipforge.sarif";
  ProcessResult run =
      RunCli({"--quiet", "analyze", kExample.string(), "--format", "sarif", "--output", sarif_path.string()});
  ASSERT_EQ(run.exit_code, 0) << run.standard_error;
  const nlohmann::json sarif = nlohmann::json::parse(ReadFile(sarif_path));
  EXPECT_EQ(sarif["version"], "2.1.0");
  ASSERT_EQ(sarif["runs"].size(), 1u);
  // The tool names its version (code-scanning services show which analyzer produced the alerts).
  EXPECT_FALSE(sarif["runs"][0]["tool"]["driver"].value("version", "").empty());
  const nlohmann::json& results = sarif["runs"][0]["results"];
  // The example is written the 32-lane way on purpose: warp-size findings in reductions.cu.
  ASSERT_FALSE(results.empty());
  bool reductions = false;
  for (const auto& result : results) {
    EXPECT_FALSE(result.value("ruleId", "").empty());
    const auto& location = result["locations"][0]["physicalLocation"];
    EXPECT_GT(location["region"].value("startLine", 0), 0);
    reductions |= location["artifactLocation"].value("uri", "") == "src/reductions.cu";
  }
  EXPECT_TRUE(reductions);

  // --fail-on note: every finding is at or above note, so the gate trips with exit 4.
  ProcessResult gated = RunCli({"--quiet", "analyze", kExample.string(), "--fail-on", "note"});
  EXPECT_EQ(gated.exit_code, 4) << gated.standard_error;
  EXPECT_THAT(gated.standard_output, HasSubstr("src/reductions.cu"));
  EXPECT_THAT(gated.standard_error, HasSubstr("at or above --fail-on note"));

  // A bad option value is a usage error (exit 1).
  ProcessResult usage = RunCli({"analyze", kExample.string(), "--format", "pdf"});
  EXPECT_EQ(usage.exit_code, 1);
}

// analyze reads the CUDA tree before any translation: a finding with an automatic fix is what `translate` will fix,
// not work left for a person (issue 26: "Left for a person" counted auto-fixable findings), in the text and for
// --fail-on alike (report::CountFindings before the translation).
TEST(CliLocalModesTest, AnalyzeDoesNotLeaveAutomaticallyFixableFindingsToAPerson) {
  ScratchDir tree("analyze-fixable");
  fs::create_directories(tree.path() / "src");
  // HB104 (shuffle offsets from 16: fixable, the loop starts at warpSize / 2) and HB504 (nvidia-smi: no fix here).
  std::ofstream(tree.path() / "src/k.cu")
      << "__device__ float warp_sum(float v) {\n"
         "  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffffffffffull, v, offset);\n"
         "  return v;\n}\n\n"
         "__global__ void reduce(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]); }\n";
  std::ofstream(tree.path() / "run.sh") << "#!/bin/sh\nnvidia-smi\n";
  ProcessResult run = RunCli({"--quiet", "analyze", tree.path().string(), "--fail-on", "warning"});
  EXPECT_THAT(run.standard_output,
              HasSubstr("\nFixable automatically (migrate-cli translate applies the fix): 1 finding\n"
                        "  src/k.cu:2:21: warning: [HB104] "));
  EXPECT_THAT(run.standard_output, HasSubstr("\nLeft for a person: 1 error, 0 warnings, 0 notes\n"));
  EXPECT_THAT(run.standard_output, ::testing::Not(HasSubstr("Fixed automatically")));
  EXPECT_EQ(run.exit_code, 4) << run.standard_output;  // the HB504 error is left
  EXPECT_THAT(run.standard_error, HasSubstr("1 finding(s) at or above --fail-on warning"));

  fs::remove(tree.path() / "run.sh");  // only the fixable finding: nothing to gate on
  ProcessResult fixable_only = RunCli({"--quiet", "analyze", tree.path().string(), "--fail-on", "warning"});
  EXPECT_EQ(fixable_only.exit_code, 0) << fixable_only.standard_output;
  EXPECT_THAT(fixable_only.standard_output, HasSubstr("\nLeft for a person: none\n"));
  // JUnit fails no rule for it either.
  ProcessResult junit = RunCli({"--quiet", "analyze", tree.path().string(), "--format", "junit"});
  EXPECT_THAT(junit.standard_output, HasSubstr("(fixable automatically)"));
  EXPECT_THAT(junit.standard_output, ::testing::Not(HasSubstr("<failure")));
}

}  // namespace
}  // namespace hipforge::client
