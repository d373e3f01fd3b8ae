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
    state.run_build = &state.builds[0];
    state.variables = {{"BUILD_DIR", state.builds[0].build_dir.string()}};
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
