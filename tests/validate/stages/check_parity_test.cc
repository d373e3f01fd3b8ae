#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;

class CheckParityTest : public ValidatorStageTest {
 protected:
  Validator::State& RunState() {
    Validator::State& state = MakeState();
    state.references_dir = work_.path() / "refs";
    Validator::ArchBuild build;
    build.toolchain = &toolchain_;
    build.result = {.requested_arch = "gfx90a", .arch = "gfx90a", .ok = true};
    build.build_dir = work_.path() / "build";
    fs::create_directories(build.build_dir);
    state.builds.push_back(std::move(build));
    state.run.emplace().build = &state.builds[0];
    state.run->variables = {{"BUILD_DIR", state.builds[0].build_dir.string()}};
    return state;
  }
  Toolchain toolchain_{.name = "host"};
};

TEST_F(CheckParityTest, EachCaseGetsAVerdictOrSaysWhyItIsMissing) {
  WriteFile(work_.path() / "refs/sum.txt", "1.0 2.0 3.0\n");
  WriteFile(work_.path() / "refs/out.txt", "4.0 5.0\n");
  WriteFile(work_.path() / "build/out.txt", "4.0 5.5\n");
  Validator::State& state = RunState();
  state.manifest.parity = {
      ParityCase{.name = "no-reference", .reference = "absent.txt"},
      ParityCase{.name = "run-fails", .run = "./crash", .output = "x.txt", .reference = "sum.txt"},
      ParityCase{.name = "stdout", .run = "./sum", .from_stdout = true, .reference = "sum.txt"},
      ParityCase{.name = "file", .output = "out.txt", .reference = "out.txt"},
  };
  launcher_.answer = [](const ProcessSpec& spec) -> absl::StatusOr<ProcessResult> {
    if (spec.argv.back().find("crash") != std::string::npos) {
      return ProcessResult{.exit_code = 3, .standard_error = "segfault"};
    }
    return ProcessResult{.exit_code = 0, .standard_output = "1.0 2.0 3.0\n"};
  };
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  ASSERT_EQ(state.report.parity.size(), 4u);
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMissing);
  EXPECT_NE(state.report.parity[0].detail.find("no CUDA reference"), std::string::npos);
  EXPECT_EQ(state.report.parity[1].verdict, ParityVerdict::kMissing);
  EXPECT_NE(state.report.parity[1].detail.find("run exited 3: segfault"), std::string::npos)
      << state.report.parity[1].detail;
  EXPECT_EQ(state.report.parity[2].verdict, ParityVerdict::kMatch) << state.report.parity[2].detail;
  EXPECT_EQ(state.report.parity[3].verdict, ParityVerdict::kMismatch) << "5.5 is not 5.0";
  ASSERT_EQ(launcher_.specs.size(), 2u) << "the two cases with a run command";
  EXPECT_EQ(launcher_.specs[1].working_directory, work_.path() / "build");
}

}  // namespace
}  // namespace hipforge::validate::testing

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;

// Parity against the automatic CUDA reference (RunCudaReference left state.cuda).
class ReferenceParityTest : public ValidatorStageTest {
 protected:
  Validator::State& RunState(const std::string& hip_output, const std::string& cuda_output) {
    Validator::State& state = MakeState();
    state.references_dir = work_.path() / "refs";
    Validator::ArchBuild build;
    build.toolchain = &toolchain_;
    build.result = {.requested_arch = "sm_90", .arch = "sm_90", .ok = true};
    build.build_dir = work_.path() / "hip";
    state.builds.push_back(std::move(build));
    state.run.emplace().build = &state.builds[0];
    state.run->variables = {{"BUILD_DIR", state.builds[0].build_dir.string()}};
    state.report.tests = {TestResult{
        .name = "make run", .status = TestStatus::kPassed, .cuda = ReferenceRun{.status = TestStatus::kPassed}}};
    state.outputs["make run"] = hip_output;
    state.cuda = std::make_unique<Validator::CudaReference>();
    state.cuda->built = true;
    state.cuda->build_dir = work_.path() / "cuda";
    state.cuda->variables = {{"BUILD_DIR", state.cuda->build_dir.string()}};
    state.cuda->outputs["make run"] = cuda_output;
    state.cuda->tests.discovered = {TestCommand{.name = "make run", .run = "make run", .discovered = true}};
    state.cuda->tests.build_dir = state.cuda->build_dir;
    return state;
  }
  Toolchain toolchain_{.name = "hip-on-cuda"};
};

TEST_F(ReferenceParityTest, PrintedNumbersMatchTheCudaRunWithTimingLinesLeftOut) {
  // base64e: a copy/compute overlap measured from timings is no result either.
  Validator::State& state = RunState(
      "checksum: 1.500000 42\nAverage kernel execution time: 12.5 (us)\n"
      "Measured and (Acceptable) Avg Overlap = 44.5 % (40.0 %)\nPASS\n",
      "checksum: 1.500000 42\nAverage kernel execution time: 9.1 (us)\n"
      "Measured and (Acceptable) Avg Overlap = 44.2 % (40.0 %)\nPASS\n");
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].case_name, "output of make run");
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMatch) << state.report.parity[0].detail;
  EXPECT_EQ(state.report.parity[0].elements, 2);
  EXPECT_TRUE(launcher_.specs.empty()) << "a match needs no second CUDA run";
}

TEST_F(ReferenceParityTest, TheDevicesUsedAndFreeMemoryIsNoResult) {
  // segsort on a GPU that several jobs' tests share (the pool's GPU slots): the memory figures are the GPU's state.
  Validator::State& state =
      RunState("GPU memory usage: used = 3366.31 MB, free = 139789.62 MB, total = 143155.94 MB\nsum 4096\n",
               "GPU memory usage: used = 3866.31 MB, free = 139289.62 MB, total = 143155.94 MB\nsum 4096\n");
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMatch) << state.report.parity[0].detail;
  EXPECT_EQ(state.report.parity[0].elements, 1);
}

TEST_F(ReferenceParityTest, AMismatchStandsWhenTheCudaRunRepeatsItself) {
  Validator::State& state = RunState("checksum: 1.75\n", "checksum: 1.5\n");
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 0, .standard_output = "checksum: 1.5\n"};
  };
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMismatch);
  ASSERT_EQ(launcher_.specs.size(), 1u) << "the CUDA test once more";
  EXPECT_EQ(launcher_.specs[0].working_directory, work_.path() / "cuda");
}

TEST_F(ReferenceParityTest, OutputThatVariesBetweenCudaRunsIsNoReference) {
  Validator::State& state = RunState("seed 17 sum 4\n", "seed 3 sum 4\n");
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 0, .standard_output = "seed 99 sum 4\n"};
  };
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  EXPECT_TRUE(state.report.parity.empty());
  ASSERT_EQ(state.report.gpu.warnings.size(), 1u);
  EXPECT_NE(state.report.gpu.warnings[0].find("differs between two runs"), std::string::npos);
}

TEST_F(ReferenceParityTest, AManifestCaseWithoutAGoldenComparesWithTheCudaBuildsOutput) {
  Validator::State& state = RunState("", "");
  WriteFile(work_.path() / "hip/out.txt", "1.0 2.0 3.0\n");
  WriteFile(work_.path() / "cuda/out.txt", "1.0 2.0 3.5\n");
  state.manifest.parity = {ParityCase{.name = "out", .output = "out.txt", .reference = "out.txt"}};
  ASSERT_TRUE(MakeValidator().CheckParity(state).ok());
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMismatch);
  EXPECT_NE(state.report.parity[0].detail.find("the CUDA original's output"), std::string::npos);
  // A golden the user gave still wins.
  WriteFile(work_.path() / "refs/out.txt", "1.0 2.0 3.0\n");
  state.report.parity.clear();
  ASSERT_TRUE(validator_->CheckParity(state).ok());
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMatch) << state.report.parity[0].detail;
}

}  // namespace
}  // namespace hipforge::validate::testing
