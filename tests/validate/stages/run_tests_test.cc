#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;

class RunTestsTest : public ValidatorStageTest {};

TEST_F(RunTestsTest, TheManifestsTestsRunInTheRunBuildAndLeaveAJUnitFile) {
  Toolchain toolchain{.name = "host"};
  Validator::State& state = MakeState();
  fs::create_directories(state.work_dir);
  state.manifest.tests.commands = {TestCommand{.name = "unit", .run = "./unit --fast"},
                                   TestCommand{.name = "slow", .run = "./slow"}};
  Validator::ArchBuild build;
  build.toolchain = &toolchain;
  build.result = {.requested_arch = "gfx90a", .arch = "gfx90a", .ok = true};
  build.build_dir = work_.path() / "build";
  build.source_dir = work_.path() / "src";
  state.builds.push_back(std::move(build));
  state.run.emplace().build = &state.builds[0];
  state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
  launcher_.answer = [](const ProcessSpec& spec) -> absl::StatusOr<ProcessResult> {
    const bool slow = spec.argv.back().find("slow") != std::string::npos;
    return ProcessResult{.exit_code = slow ? 1 : 0, .standard_output = slow ? "assertion failed" : "ok"};
  };
  ASSERT_TRUE(MakeValidator().RunTests(state).ok());
  ASSERT_EQ(state.report.tests.size(), 2u);
  EXPECT_EQ(state.report.tests[0].name, "unit");
  EXPECT_EQ(state.report.tests[0].status, TestStatus::kPassed);
  EXPECT_EQ(state.report.tests[0].arch, "gfx90a");
  EXPECT_EQ(state.report.tests[1].status, TestStatus::kFailed);
  // The failed test runs once more with kernels serialized, to tell a race from a wrong result.
  ASSERT_EQ(launcher_.specs.size(), 3u);
  EXPECT_NE(launcher_.specs[0].argv.back().find("./unit --fast"), std::string::npos);
  EXPECT_EQ(launcher_.specs[0].working_directory, work_.path() / "build");
  EXPECT_EQ(launcher_.specs[2].environment.at("AMD_SERIALIZE_KERNEL"), "3");
  EXPECT_NE(state.report.tests[1].output_excerpt.find("re-run with AMD_SERIALIZE_KERNEL=3"), std::string::npos);
  const std::string junit = ReadFile(state.work_dir / "junit.xml");
  EXPECT_NE(junit.find("unit"), std::string::npos) << junit;
  EXPECT_NE(junit.find("failure"), std::string::npos) << junit;
}

}  // namespace
}  // namespace hipforge::validate::testing
