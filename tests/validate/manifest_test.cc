#include "worker/validate/manifest.h"

#include <gtest/gtest.h>

#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

TEST(ManifestTest, ParsesEverySection) {
  auto manifest = ParseManifest(R"(
version: 1
targets: [gfx90a, gfx942]
env: {OMP_NUM_THREADS: "4"}
managed_memory: true
build:
  system: commands
  commands:
    - hipcc --offload-arch=${ARCH} main.hip -o ${BUILD_DIR}/app
  timeout_s: 300
tests:
  ctest: false
  timeout_s: 120
  commands:
    - ${BUILD_DIR}/app --quick
    - name: full
      run: ${BUILD_DIR}/app --full
      timeout_s: 30
parity:
  - case: out
    output: out.bin
    reference: golden/out.bin
    dtype: bf16
    rtol: 0.02
  - case: log
    run: ${BUILD_DIR}/app --print
    stdout: true
    reference: log.txt
    exclude_lines_matching: "time|GB/s"
    columns: [1]
profile:
  command: ${BUILD_DIR}/app --bench
  cuda_baseline: nsys_kern_sum.csv
)");
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->targets, (std::vector<std::string>{"gfx90a", "gfx942"}));
  EXPECT_TRUE(manifest->managed_memory);
  EXPECT_EQ(manifest->build.system, BuildSystem::kCommands);
  EXPECT_EQ(manifest->build.timeout->count(), 300);
  ASSERT_EQ(manifest->tests.commands.size(), 2u);
  EXPECT_EQ(manifest->tests.commands[0].name, "test1");
  EXPECT_EQ(manifest->tests.commands[1].timeout->count(), 30);
  EXPECT_FALSE(*manifest->tests.ctest);
  ASSERT_EQ(manifest->parity.size(), 2u);
  EXPECT_EQ(*manifest->parity[0].dtype, DType::kBFloat16);
  EXPECT_EQ(*manifest->parity[0].rtol, 0.02);
  EXPECT_FALSE(manifest->parity[0].atol.has_value());
  EXPECT_TRUE(manifest->parity[1].from_stdout);
  EXPECT_EQ(*manifest->parity[1].format, OutputFormat::kText);
  EXPECT_EQ(manifest->parity[1].text.columns, (std::vector<int>{1}));
  EXPECT_EQ(manifest->profile.cuda_baseline, "nsys_kern_sum.csv");
}

TEST(ManifestTest, GateIsReadAsWrittenAndAbsentWhenNotGiven) {
  // The names are the server's to check (server/store/gate_definition.h), at submit.
  auto manifest = ParseManifest("gate: [builds, findings, speed]\n");
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  ASSERT_TRUE(manifest->gate.has_value());
  EXPECT_EQ(*manifest->gate, (std::vector<std::string>{"builds", "findings", "speed"}));
  auto none = ParseManifest("targets: [gfx942]\n");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->gate.has_value());
  auto empty = ParseManifest("gate: []\n");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->gate.has_value() && empty->gate->empty());
}

TEST(ManifestTest, ReferencesDirectoryStaysInsideTheRepository) {
  auto manifest = ParseManifest("references: cuda-outputs/golden\n");
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->references, "cuda-outputs/golden");
  EXPECT_TRUE(ParseManifest("version: 1\n")->references.empty());
  EXPECT_FALSE(ParseManifest("references: /etc\n").ok());
  EXPECT_FALSE(ParseManifest("references: golden/../../outside\n").ok());
}

TEST(ManifestTest, RejectsTyposAndIncompleteCases) {
  EXPECT_FALSE(ParseManifest("tets: {}\n").ok());
  EXPECT_FALSE(ParseManifest("parity:\n  - case: a\n    reference: r\n").ok());  // no output
  EXPECT_FALSE(ParseManifest("parity:\n  - case: a\n    output: o\n    reference: r\n    tolerence: 1\n").ok());
  EXPECT_FALSE(ParseManifest("build: {system: bazel}\n").ok());
  EXPECT_FALSE(ParseManifest("version: 2\n").ok());
  EXPECT_FALSE(ParseManifest("parity:\n  - case: a\n    output: o\n    reference: r\n    dtype: float128\n").ok());
  EXPECT_FALSE(ParseManifest("build: [unclosed\n").ok());
  EXPECT_TRUE(ParseManifest("").ok());
}

TEST(ManifestTest, FixtureManifestLoadsAndVariablesExpand) {
  auto manifest = LoadManifest(testing::TestData("saxpy_hip/hipforge.yaml"));
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  EXPECT_EQ(manifest->parity[0].name, "saxpy-y");
  EXPECT_EQ(ExpandVariables("${BUILD_DIR}/app ${ARCH} ${UNKNOWN} $HOME", {{"BUILD_DIR", "/b"}, {"ARCH", "gfx90a"}}),
            "/b/app gfx90a ${UNKNOWN} $HOME");
}

}  // namespace
}  // namespace hipforge::validate
