#include "absl/strings/match.h"
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class LeaseGpuTest : public ValidatorStageTest {};

TEST_F(LeaseGpuTest, WithoutAGpuTheNoteSaysWhy) {
  inventory_.runtime_note = "libamdhip64.so not found";
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().LeaseGpu(state).ok());
  EXPECT_EQ(state.report.gpu.note, "not run on a GPU: compile-only worker (libamdhip64.so not found)");
  EXPECT_FALSE(state.report.gpu.ran_on_gpu);
  EXPECT_EQ(state.lease, nullptr);
}

TEST_F(LeaseGpuTest, AGpuButNoSuccessfulBuild) {
  inventory_.gpus = {leases_.device};
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().LeaseGpu(state).ok());
  EXPECT_EQ(state.report.gpu.note, "not run on a GPU: no build succeeded");
  EXPECT_TRUE(leases_.asked_archs.empty()) << "no lease was asked for";
}

TEST_F(LeaseGpuTest, TheLeaseIsForABuiltArch) {
  inventory_.gpus = {leases_.device};
  Validator::State& state = MakeState();
  state.built_archs = {"gfx90a", "gfx942"};
  leases_.refusal = absl::DeadlineExceededError("every GPU busy for 30 min");
  ASSERT_TRUE(MakeValidator().LeaseGpu(state).ok());
  EXPECT_EQ(leases_.asked_archs, (std::vector<std::string>{"gfx90a", "gfx942"}));
  EXPECT_EQ(state.report.gpu.note, "not run on a GPU: every GPU busy for 30 min");
  EXPECT_EQ(state.lease, nullptr);

  leases_.refusal = absl::OkStatus();
  Validator::State& leased = MakeState();
  leased.built_archs = {"gfx90a"};
  ASSERT_TRUE(validator_->LeaseGpu(leased).ok());
  ASSERT_NE(leased.lease, nullptr);
  EXPECT_TRUE(leased.report.gpu.ran_on_gpu);
  EXPECT_EQ(leased.report.gpu.device_key, "0000:c1:00.0");
  EXPECT_EQ(leased.report.gpu.device_arch, "gfx90a");
  EXPECT_EQ(leased.report.gpu.note, "ran on AMD Instinct MI250X 0000:c1:00.0");
  leased.lease.reset();
  EXPECT_EQ(leases_.released, 1) << "the lease goes back with the state";
}

// A target with a feature runs on its processor's GPU: the job that built only sm_90:wave64 (ggml's hipforge.yaml)
// was told "no GPU on this worker has arch sm_90:wave64" on an H200 and ran no test.
TEST_F(LeaseGpuTest, ATargetWithAFeatureLeasesItsProcessor) {
  leases_.device = {.hip_index = 0, .key = "0000:19:00.0", .arch = "sm_90", .name = "NVIDIA H200"};
  inventory_.gpus = {leases_.device};
  Validator::State& state = MakeState();
  state.built_archs = {"sm_90:wave64"};
  ASSERT_TRUE(MakeValidator().LeaseGpu(state).ok());
  EXPECT_EQ(leases_.asked_archs, (std::vector<std::string>{"sm_90"}));
  ASSERT_NE(state.lease, nullptr) << state.report.gpu.note;
  EXPECT_TRUE(state.report.gpu.ran_on_gpu);
  EXPECT_TRUE(absl::StrContains(state.report.gpu.note, "(sm_90:wave64, warpSize 64: CDNA's wavefront emulated)"))
      << "the note says which warp size the tests saw: " << state.report.gpu.note;

  Validator::State& both = MakeState();
  both.built_archs = {"gfx90a:xnack+", "sm_90", "sm_90:wave64"};
  ASSERT_TRUE(validator_->LeaseGpu(both).ok());
  EXPECT_EQ(leases_.asked_archs, (std::vector<std::string>{"gfx90a", "sm_90"})) << "each processor asked once";
  EXPECT_TRUE(absl::StrContains(both.report.gpu.note,
                                "(sm_90, warpSize 32; sm_90:wave64, warpSize 64: CDNA's wavefront emulated)"))
      << both.report.gpu.note;
}

}  // namespace
}  // namespace hipforge::validate::testing
