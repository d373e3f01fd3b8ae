// Profile's decisions without a profiler run (the CSV parsing and baselines: tests/validate/profile_test.cc).
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;

class ProfileStageTest : public ValidatorStageTest {
 protected:
  Validator::State& RunState(const fs::path& hipcc) {
    toolchain_.hipcc = hipcc;
    Validator::State& state = MakeState();
    Validator::ArchBuild build;
    build.toolchain = &toolchain_;
    build.build_dir = work_.path() / "build";
    state.builds.push_back(std::move(build));
    state.run_build = &state.builds[0];
    state.manifest.tests.commands = {TestCommand{.name = "unit", .run = "./unit"}};
    return state;
  }
  Toolchain toolchain_{.name = "host"};
};

TEST_F(ProfileStageTest, ProfilingOffOrNoCommandRunsNothing) {
  options_.profile = false;
  Validator::State& off = RunState("/opt/rocm/bin/hipcc");
  ASSERT_TRUE(MakeValidator().Profile(off).ok());
  options_.profile = true;
  Validator::State& disabled = RunState("/opt/rocm/bin/hipcc");
  disabled.manifest.profile.enabled = false;
  ASSERT_TRUE(MakeValidator().Profile(disabled).ok());
  Validator::State& no_command = RunState("/opt/rocm/bin/hipcc");
  no_command.manifest.tests.commands.clear();
  ASSERT_TRUE(validator_->Profile(no_command).ok());
  EXPECT_TRUE(launcher_.specs.empty());
  EXPECT_TRUE(no_command.report.gpu.warnings.empty());
}

TEST_F(ProfileStageTest, AProfilerBesideHipccProfilesTheFirstTestCommand) {
  // A stand-in rocprofv3 next to the toolchain's hipcc: the stage finds it there and runs the first test command
  // under it in the run build's directory; it writes no stats, which the report says.
  const fs::path bin = work_.path() / "rocm/bin";
  WriteFile(bin / "hipcc", "");
  WriteFile(bin / "rocprofv3", "#!/bin/sh\n");
  fs::permissions(bin / "rocprofv3", fs::perms::owner_all);
  Validator::State& state = RunState(bin / "hipcc");
  ASSERT_TRUE(MakeValidator().Profile(state).ok());
  ASSERT_EQ(launcher_.specs.size(), 1u);
  const ProcessSpec& run = launcher_.specs[0];
  EXPECT_EQ(run.argv.front(), (bin / "rocprofv3").string());
  EXPECT_NE(run.argv.back().find("./unit"), std::string::npos);
  EXPECT_EQ(run.working_directory, work_.path() / "build");
  ASSERT_EQ(state.report.gpu.warnings.size(), 1u);
  EXPECT_NE(state.report.gpu.warnings[0].find("profiling produced no stats"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::validate::testing
