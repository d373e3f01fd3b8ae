#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class ChooseRunBuildTest : public ValidatorStageTest {
 protected:
  Validator::ArchBuild Built(const std::string& requested, const std::string& arch, bool ok) {
    Validator::ArchBuild build;
    build.toolchain = &toolchain_;
    build.result.requested_arch = requested;
    build.result.arch = arch;
    build.result.ok = ok;
    if (ok) {
      build.source_dir = work_.path() / (requested + "/src");
      build.build_dir = work_.path() / (requested + "/build");
    }
    return build;
  }
  Toolchain toolchain_{.name = "host", .hipcc = "/opt/rocm/bin/hipcc"};
};

TEST_F(ChooseRunBuildTest, WithoutALeaseEveryTestIsNotRunAndEveryParityCaseMissing) {
  Validator::State& state = MakeState();
  state.manifest.tests.commands = {TestCommand{.name = "unit", .run = "./unit"}};
  state.manifest.parity = {ParityCase{.name = "y", .reference = "y.bin"}};
  state.builds.push_back(Built("gfx90a", "gfx90a", true));
  state.builds.push_back(Built("gfx942", "gfx942", false));
  state.report.gpu.note = "not run on a GPU: no build succeeded";
  ASSERT_TRUE(MakeValidator().ChooseRunBuild(state).ok());
  EXPECT_TRUE(state.finished) << "nothing after this stage runs";
  ASSERT_EQ(state.report.tests.size(), 2u) << "the test, for each build";
  for (const TestResult& test : state.report.tests) {
    EXPECT_EQ(test.name, "unit");
    EXPECT_EQ(test.status, TestStatus::kNotRun);
    EXPECT_EQ(test.output_excerpt, "not run on a GPU: no build succeeded");
  }
  EXPECT_EQ(state.report.tests[1].arch, "gfx942");
  ASSERT_EQ(state.report.parity.size(), 1u);
  EXPECT_EQ(state.report.parity[0].verdict, ParityVerdict::kMissing);
  EXPECT_FALSE(state.report.gpu.ran_on_gpu);
  EXPECT_TRUE(launcher_.specs.empty()) << "no CTest to list";
}

TEST_F(ChooseRunBuildTest, TheLeasedGpusOwnArchBuildRunsBeforeAStandIn) {
  request_.managed_memory_found = true;
  Validator::State& state = MakeState();
  state.builds.push_back(Built("gfx940", "gfx90a", true));  // a stand-in build of gfx90a
  state.builds.push_back(Built("gfx90a", "gfx90a", true));
  state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
  ASSERT_TRUE(MakeValidator().ChooseRunBuild(state).ok());
  EXPECT_FALSE(state.finished);
  ASSERT_EQ(state.run->build, &state.builds[1]);
  EXPECT_EQ(state.run->variables.at("ARCH"), "gfx90a");
  EXPECT_EQ(state.run->variables.at("BUILD_DIR"), state.builds[1].build_dir.string());
  EXPECT_EQ(state.run->variables.at("SOURCE_DIR"), state.builds[1].source_dir.string());
  EXPECT_EQ(state.run->context.environment.at("HSA_XNACK"), "1") << "the translate step found managed memory";
  EXPECT_EQ(state.run->context.environment.count("ROCR_VISIBLE_DEVICES"), 1u);
  EXPECT_FALSE(state.run->context.sandbox) << "no sandbox in this test";

  Validator::State& stand_in = MakeState();
  stand_in.builds.push_back(Built("gfx940", "gfx90a", true));
  stand_in.lease = std::make_unique<GpuLease>(leases_, leases_.device);
  ASSERT_TRUE(validator_->ChooseRunBuild(stand_in).ok());
  EXPECT_EQ(stand_in.run->build, &stand_in.builds[0]) << "the only build of the GPU's arch";
}

}  // namespace
}  // namespace hipforge::validate::testing
