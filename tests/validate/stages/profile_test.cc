// Profile's decisions without a profiler run (the CSV parsing and baselines: tests/validate/profile_test.cc).
#include <algorithm>

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
    state.run.emplace().build = &state.builds[0];
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
  EXPECT_NE(state.report.gpu.warnings[0].find("profiling (hip) produced no kernel times"), std::string::npos);
}

TEST_F(ProfileStageTest, OnNvidiaNcuProfilesTheHipBuildAndTheCudaReferenceAndPairsTheirKernels) {
  // ncu (a stand-in path) runs the same command in both builds; each run's CSV gives per-kernel times, and the
  // CUDA run's become the HIP kernels' baseline.
  options_.ncu = "/usr/local/cuda/bin/ncu";
  leases_.device.arch = "sm_90";
  Validator::State& state = RunState("/opt/hip-on-cuda/bin/hipcc");
  state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
  state.cuda = std::make_unique<Validator::CudaReference>();
  state.cuda->built = true;
  state.cuda->build_dir = work_.path() / "cuda";
  launcher_.answer = [](const ProcessSpec& spec) -> absl::StatusOr<ProcessResult> {
    auto log = std::find(spec.argv.begin(), spec.argv.end(), "--log-file");
    const bool cuda = spec.working_directory.filename() == "cuda";
    WriteFile(*(log + 1), std::string("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"\",\"\",\"nsecond\"\n") +
                              "\"0\",\"scale(float *, int)\",\"" + (cuda ? "1000" : "1500") + "\"\n");
    return ProcessResult{.exit_code = 0};
  };
  ASSERT_TRUE(MakeValidator().Profile(state).ok());
  ASSERT_EQ(launcher_.specs.size(), 2u);
  EXPECT_EQ(launcher_.specs[0].argv.front(), "/usr/local/cuda/bin/ncu");
  EXPECT_EQ(launcher_.specs[0].working_directory, work_.path() / "build");
  EXPECT_EQ(launcher_.specs[1].working_directory, work_.path() / "cuda");
  ASSERT_EQ(state.report.profile.size(), 1u);
  EXPECT_EQ(state.report.profile[0].total_ns, 1500);
  ASSERT_TRUE(state.report.profile[0].cuda_baseline_ns.has_value());
  EXPECT_EQ(*state.report.profile[0].cuda_baseline_ns, 1000);
  EXPECT_TRUE(state.report.gpu.warnings.empty());
}

TEST_F(ProfileStageTest, ACTestBuildWithoutTestCommandsProfilesItsCTestRun) {
  options_.ncu = "/usr/local/cuda/bin/ncu";
  leases_.device.arch = "sm_90";
  Validator::State& state = RunState("/opt/hip-on-cuda/bin/hipcc");
  state.manifest.tests.commands.clear();
  state.builds[0].has_ctest = true;
  state.run->variables = {{"BUILD_DIR", (work_.path() / "build").string()}};
  state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
  ASSERT_TRUE(MakeValidator().Profile(state).ok());
  ASSERT_EQ(launcher_.specs.size(), 1u);
  EXPECT_NE(launcher_.specs[0].argv.back().find("ctest --test-dir '" + (work_.path() / "build").string() + "'"),
            std::string::npos)
      << launcher_.specs[0].argv.back();
}

}  // namespace
}  // namespace hipforge::validate::testing
