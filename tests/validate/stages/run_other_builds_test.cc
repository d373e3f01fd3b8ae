// RunOtherBuilds over a fake launcher: a second build for the leased GPU (sm_90:wave64 beside sm_90) runs the same
// tests, each result under its own arch, paired with the CUDA original's run; the wave64 layer's notes become
// warnings and leave the output (TakeWave64Notes).
#include <gmock/gmock.h>

#include "absl/strings/match.h"
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

class RunOtherBuildsTest : public ValidatorStageTest {
 protected:
  Validator::State& TwoBuilds() {
    leases_.device.arch = "sm_90";
    state_holder_ = &MakeState();
    Validator::State& state = *state_holder_;
    state.manifest.tests.commands = {TestCommand{.name = "k01", .run = "./k01"}};
    for (const std::string arch : {"sm_90", "sm_90:wave64"}) {
      Validator::ArchBuild build;
      build.toolchain = &toolchain_;
      build.result = {.requested_arch = arch, .arch = arch, .ok = true};
      build.source_dir = work_.path() / arch / "src";
      build.build_dir = work_.path() / arch / "build";
      fs::create_directories(build.build_dir);
      state.builds.push_back(std::move(build));
    }
    state.run.emplace().build = &state.builds[0];
    state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
    state.report.tests = {TestResult{.name = "k01", .arch = "sm_90", .status = TestStatus::kPassed}};
    auto cuda = std::make_unique<Validator::CudaReference>();
    cuda->arch = "sm_90";
    cuda->built = true;
    cuda->results["k01"] = TestResult{.name = "k01", .arch = "sm_90", .status = TestStatus::kPassed};
    cuda->outputs["k01"] = "sum = 42\nPASS\n";
    state.cuda = std::move(cuda);
    return state;
  }
  Toolchain toolchain_{.name = "hip-on-cuda", .hipcc = "/opt/hip-on-cuda/bin/hipcc"};
  Validator::State* state_holder_ = nullptr;
};

TEST_F(RunOtherBuildsTest, TheWave64BuildRunsTheSameTestsUnderItsOwnArch) {
  Validator::State& state = TwoBuilds();
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 1,
                         .standard_output = "hipforge-wave64: approximate: half a wave waited\nsum = 21\nFAIL\n"};
  };
  ASSERT_TRUE(MakeValidator().RunOtherBuilds(state).ok());
  ASSERT_GE(launcher_.specs.size(), 1u) << "the wave64 build's test (a failure runs once more, alone)";
  for (const ProcessSpec& spec : launcher_.specs) {
    EXPECT_TRUE(absl::StrContains(spec.working_directory.string(), "sm_90:wave64")) << "the sm_90 build ran before";
  }
  ASSERT_EQ(state.report.tests.size(), 2u);
  const TestResult& wave64 = state.report.tests[1];
  EXPECT_EQ(wave64.arch, "sm_90:wave64");
  EXPECT_EQ(wave64.status, TestStatus::kFailed);
  ASSERT_TRUE(wave64.cuda.has_value()) << "paired with the CUDA original's run";
  EXPECT_EQ(wave64.cuda->status, TestStatus::kPassed);
  EXPECT_TRUE(IsMigrationFailure(wave64));
  ASSERT_EQ(state.report.gpu.warnings.size(), 1u);
  EXPECT_EQ(state.report.gpu.warnings[0], "sm_90:wave64: k01: approximate: half a wave waited");
}

TEST_F(RunOtherBuildsTest, APassingWave64TestIsComparedWithTheCudaOutputWithoutTheLayersNotes) {
  Validator::State& state = TwoBuilds();
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 0, .standard_output = "sum = 42\nhipforge-wave64: approximate: x\nPASS\n"};
  };
  ASSERT_TRUE(MakeValidator().RunOtherBuilds(state).ok());
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].case_name, "output of k01 (sm_90:wave64)");
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMatch);
}

TEST_F(RunOtherBuildsTest, NothingRunsWithoutAnotherBuildOfTheLeasedGpu) {
  Validator::State& state = TwoBuilds();
  state.builds[1].result.ok = false;
  ASSERT_TRUE(MakeValidator().RunOtherBuilds(state).ok());
  EXPECT_TRUE(launcher_.specs.empty());
  EXPECT_EQ(state.report.tests.size(), 1u);
}

TEST(TakeWave64NotesTest, EachNoteOnceAsAWarningAndOutOfTheOutput) {
  std::map<std::string, std::string> outputs = {
      {"a", "x = 1\nhipforge-wave64: approximate: half a wave waited\ny = 2\n"},
      {"b", "y = 3 hipforge-wave64: approximate: half a wave waited\n"},
      {"c", "no notes\n"}};
  GpuSection gpu;
  TakeWave64Notes("sm_90:wave64", outputs, gpu);
  EXPECT_EQ(outputs["a"], "x = 1\ny = 2\n");
  EXPECT_EQ(outputs["b"], "y = 3 \n") << "device printf may share a line with the program's output";
  EXPECT_EQ(outputs["c"], "no notes\n");
  ASSERT_EQ(gpu.warnings.size(), 2u);
  EXPECT_EQ(gpu.warnings[0], "sm_90:wave64: a: approximate: half a wave waited");
  EXPECT_EQ(gpu.warnings[1], "sm_90:wave64: b: approximate: half a wave waited");
}

}  // namespace
}  // namespace hipforge::validate::testing
