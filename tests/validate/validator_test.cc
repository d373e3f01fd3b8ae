#include "worker/validate/validator.h"
#include "tests/common/report_schema_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/validate/test_support.h"
#include "worker/userbuild/sandbox.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::TestData;

class CollectingProgress : public ProgressSink {
 public:
  void Report(std::string_view stage, std::string_view message) override {
    messages.push_back(std::string(stage) + ": " + std::string(message));
  }
  std::vector<std::string> messages;
};

// The real inventory on this machine: Debian hipcc, no AMD GPU.
TEST(ValidatorTest, CompileOnlyWorkerBuildsBothArchsAndNeverSaysPassed) {
  if (!testing::HaveHipcc()) GTEST_SKIP() << "hipcc not installed";
  testing::ScratchDir work("validator-compile-only");
  BoostProcessLauncher launcher;
  HipRocmSmiInventory inventory(launcher, "hipcc");
  auto gpus = inventory.ListGpus();
  ASSERT_TRUE(gpus.ok());
  if (!gpus->empty()) GTEST_SKIP() << "this host has an AMD GPU; the test expects a compile-only worker";
  FileLockLeaseManager leases({}, work.path() / "locks");
  Validator validator(launcher, inventory, leases, ValidatorOptions{});
  CollectingProgress progress;
  auto report = validator.Validate({.job_id = "job-compile-only",
                                    .translated_tree = TestData("saxpy_hip"),
                                    .requested_archs = {"gfx90a", "gfx942"},
                                    .references_dir = work.path() / "refs",
                                    .work_dir = work.path() / "job",
                                    .original_tree = TestData("saxpy_cuda")},
                                   &progress);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 2u);
  const BuildResult& mi250 = report->builds[0];
  EXPECT_TRUE(mi250.ok) << (mi250.errors.empty() ? "" : mi250.errors[0].message);
  EXPECT_EQ(mi250.arch, "gfx90a");
  EXPECT_THAT(mi250.toolchain, HasSubstr("hipcc 5.2"));
  ASSERT_EQ(mi250.kernels.size(), 2u);
  const BuildResult& mi300 = report->builds[1];
  EXPECT_EQ(mi300.requested_arch, "gfx942");
  EXPECT_EQ(mi300.arch, "gfx940");
  EXPECT_TRUE(mi300.ok);
  EXPECT_THAT(mi300.note, HasSubstr("nearest target gfx940"));

  EXPECT_FALSE(report->gpu.ran_on_gpu);
  EXPECT_THAT(report->gpu.note, HasSubstr("not run on a GPU"));
  ASSERT_FALSE(report->tests.empty());
  for (const TestResult& test : report->tests) EXPECT_EQ(test.status, TestStatus::kNotRun);
  ASSERT_EQ(report->parity.size(), 1u);
  EXPECT_EQ(report->parity[0].verdict, ParityVerdict::kMissing);

  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(ToJson(*report)));
  const std::string json = ToJson(*report).dump();
  EXPECT_THAT(json, ::testing::Not(HasSubstr("\"passed\"")));
  EXPECT_THAT(json, HasSubstr("\"not_run\""));
  EXPECT_FALSE(progress.messages.empty());
}

TEST(ValidatorTest, BuildErrorsPointAtTheCudaSource) {
  if (!testing::HaveHipcc()) GTEST_SKIP() << "hipcc not installed";
  testing::ScratchDir work("validator-broken");
  BoostProcessLauncher launcher;
  HipRocmSmiInventory inventory(launcher, "hipcc");
  FileLockLeaseManager leases({}, work.path() / "locks");
  Validator validator(launcher, inventory, leases, ValidatorOptions{});
  auto report = validator.Validate({.job_id = "job-broken",
                                    .translated_tree = TestData("broken_hip"),
                                    .requested_archs = {"gfx90a"},
                                    .work_dir = work.path() / "job",
                                    .original_tree = TestData("broken_cuda")},
                                   nullptr);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 1u);
  EXPECT_FALSE(report->builds[0].ok);
  ASSERT_FALSE(report->builds[0].errors.empty());
  EXPECT_EQ(report->builds[0].errors[0].path, "kernels.cu");
  EXPECT_EQ(report->builds[0].errors[0].line, 9);
  EXPECT_THAT(report->builds[0].errors[0].message, HasSubstr("undefined_helper"));
  EXPECT_THAT(report->gpu.note, HasSubstr("not run on a GPU"));
  EXPECT_FALSE(report->gpu.ran_on_gpu);
}

TEST(ValidatorTest, CMakeTreeWithHipccBuildsForGfx90a) {
  if (!testing::HaveHipcc()) GTEST_SKIP() << "hipcc not installed";
  testing::ScratchDir work("validator-cmake");
  BoostProcessLauncher launcher;
  HipRocmSmiInventory inventory(launcher, "hipcc");
  FileLockLeaseManager leases({}, work.path() / "locks");
  Validator validator(launcher, inventory, leases, ValidatorOptions{});
  auto report = validator.Validate({.job_id = "job-cmake",
                                    .translated_tree = TestData("cmake_hip"),
                                    .requested_archs = {"gfx90a"},
                                    .work_dir = work.path() / "job"},
                                   nullptr);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 1u);
  EXPECT_TRUE(report->builds[0].ok) << testing::ReadFile(work.path() / "job/gfx90a/build.log");
  ASSERT_EQ(report->builds[0].kernels.size(), 1u);
  EXPECT_THAT(report->builds[0].kernels[0].name, HasSubstr("vector_add"));
  EXPECT_TRUE(fs::exists(work.path() / "job/gfx90a/build/vector_add"));

  // No GPU: the tree's CTest tests (no hipforge.yaml names any) are listed, each not_run with the reason.
  auto gpus = inventory.ListGpus();
  if (!gpus.ok() || !gpus->empty()) return;
  ASSERT_EQ(report->tests.size(), 2u);
  EXPECT_EQ(report->tests[0].name, "vector_add");
  EXPECT_EQ(report->tests[1].name, "vector_add_twice");
  for (const TestResult& test : report->tests) {
    EXPECT_EQ(test.arch, "gfx90a");
    EXPECT_EQ(test.status, TestStatus::kNotRun);
    EXPECT_THAT(test.output_excerpt, HasSubstr("not run on a GPU"));
  }
}

// No AMD GPU here, so this inventory stands in for one gfx90a device; everything else is real
// (lease files, environment, bubblewrap, test commands, parity files, JUnit). The "build" is a
// shell command and the tests are shell scripts that report what the GPU runtime would see.
class StandInInventory : public GpuInventory {
 public:
  absl::StatusOr<std::vector<GpuDevice>> ListGpus() override {
    return std::vector<GpuDevice>{
        {.hip_index = 1, .key = "0000:c1:00.0", .arch = "gfx90a", .name = "stand-in MI250", .instinct = true}};
  }
  absl::StatusOr<std::vector<std::string>> CompileTargets() override { return std::vector<std::string>{"gfx90a"}; }
  std::string ToolchainName() override { return "stand-in toolchain"; }
  std::string RuntimeNote() override { return ""; }
};

TEST(ValidatorTest, LeasedRunSeesOneGpuAndChecksParity) {
  testing::ScratchDir work("validator-leased");
  testing::ScratchDir tree("validator-tree");
  testing::ScratchDir refs("validator-refs");
  testing::WriteFile(tree.path() / "hipforge.yaml", R"yaml(
build:
  commands:
    - printf '1.0 2.0 3.0\n' > ${BUILD_DIR}/out.txt
env:
  HSA_OVERRIDE_GFX_VERSION: "9.0.8"
  CUDA_VISIBLE_DEVICES: "0,1"
tests:
  commands:
    - name: sees-one-gpu
      run: echo "ROCR=$ROCR_VISIBLE_DEVICES HIP=${HIP_VISIBLE_DEVICES:-unset} CUDA=${CUDA_VISIBLE_DEVICES:-unset} HSA=${HSA_OVERRIDE_GFX_VERSION:-unset} XNACK=${HSA_XNACK:-unset}"
    - name: no-network
      run: python3 -c "import socket; socket.create_connection(('1.1.1.1', 53), 2)"
parity:
  - case: out
    output: out.txt
    reference: out.txt
    dtype: float32
  - case: out-bad
    output: out.txt
    reference: bad.txt
    dtype: float32
  - case: no-reference
    output: out.txt
    reference: missing.txt
)yaml");
  testing::WriteFile(refs.path() / "out.txt", "1.0000001 2.0 3.0\n");
  testing::WriteFile(refs.path() / "bad.txt", "1.0 2.5 3.0\n");
  BoostProcessLauncher launcher;
  StandInInventory inventory;
  FileLockLeaseManager leases(*inventory.ListGpus(), work.path() / "locks");
  Validator validator(launcher, inventory, leases, ValidatorOptions{});
  auto report = validator.Validate({.job_id = "job-leased",
                                    .translated_tree = tree.path(),
                                    .requested_archs = {"gfx90a"},
                                    .references_dir = refs.path(),
                                    .work_dir = work.path() / "job",
                                    .managed_memory_found = true},
                                   nullptr);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_TRUE(report->builds[0].ok);
  EXPECT_TRUE(report->gpu.ran_on_gpu);
  EXPECT_EQ(report->gpu.device_key, "0000:c1:00.0");
  ASSERT_EQ(report->tests.size(), 2u);
  EXPECT_EQ(report->tests[0].status, TestStatus::kPassed);
  EXPECT_EQ(report->tests[0].output_excerpt, "ROCR=1 HIP=unset CUDA=unset HSA=unset XNACK=1\n");
  if (ProbeSandbox(launcher, "/usr/bin/bwrap").ok()) {
    EXPECT_EQ(report->tests[1].status, TestStatus::kFailed) << "network reachable from a sandboxed test";
  }
  ASSERT_EQ(report->parity.size(), 3u);
  EXPECT_EQ(report->parity[0].verdict, ParityVerdict::kMatch) << report->parity[0].detail;
  EXPECT_EQ(report->parity[1].verdict, ParityVerdict::kMismatch);
  EXPECT_EQ(report->parity[1].mismatches, 1);
  EXPECT_EQ(report->parity[2].verdict, ParityVerdict::kMissing);
  const std::string warnings = ::testing::PrintToString(report->gpu.warnings);
  EXPECT_THAT(warnings, HasSubstr("HSA_OVERRIDE_GFX_VERSION"));
  EXPECT_THAT(warnings, HasSubstr("CUDA_VISIBLE_DEVICES"));
  EXPECT_THAT(testing::ReadFile(work.path() / "job/junit.xml"), HasSubstr("sees-one-gpu"));
}

}  // namespace
}  // namespace hipforge::validate
