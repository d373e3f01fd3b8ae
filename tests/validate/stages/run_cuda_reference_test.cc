// RunCudaReference over a fake launcher: what it builds and runs for the submitted CUDA tree, and how each reference
// run lands beside its HIP twin (the scripts themselves: tests/validate/nvidia_backend/).
#include <gmock/gmock.h>

#include "absl/strings/match.h"
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;

class RunCudaReferenceTest : public ValidatorStageTest {
 protected:
  // A HIP build that ran `make run` on an H200, and a submitted CUDA tree with a Makefile and a run target.
  Validator::State& RunState(const std::string& device_arch) {
    request_.original_tree = work_.path() / "original";
    WriteFile(request_.original_tree / "Makefile",
              "main: main.cu\n\tnvcc -arch=sm_60 main.cu -o main\nrun: main\n\t./main\n");
    WriteFile(request_.original_tree / "main.cu", "int main() {}\n");
    toolchain_.cuda_reference_nvcc = "/opt/hip-on-cuda/reference/bin/nvcc";
    leases_.device.arch = device_arch;
    Validator::State& state = MakeState();
    Validator::ArchBuild build;
    build.toolchain = &toolchain_;
    build.result = {.requested_arch = device_arch, .arch = device_arch, .ok = true};
    build.build_dir = work_.path() / "hip/build";
    build.source_dir = work_.path() / "hip/src";
    state.builds.push_back(std::move(build));
    state.run.emplace().build = &state.builds[0];
    state.lease = std::make_unique<GpuLease>(leases_, leases_.device);
    state.run->context.environment = {{"PATH", "/usr/bin"}, {"CUDA_VISIBLE_DEVICES", "0"}};
    state.report.tests = {TestResult{.name = "make run", .arch = device_arch, .status = TestStatus::kPassed},
                          TestResult{.name = "ctest", .arch = device_arch, .status = TestStatus::kFailed}};
    return state;
  }
  Toolchain toolchain_{.name = "hip-on-cuda", .hipcc = "/opt/hip-on-cuda/bin/hipcc"};
};

TEST_F(RunCudaReferenceTest, BuildsTheSubmittedTreeForTheLeasedGpuAndRunsTheSameTests) {
  Validator::State& state = RunState("sm_90");
  launcher_.answer = [](const ProcessSpec& spec) -> absl::StatusOr<ProcessResult> {
    if (absl::StrContains(spec.argv.back(), " run ")) {
      return ProcessResult{.exit_code = 0, .standard_output = "sum = 3.25\nPASS\n"};
    }
    return ProcessResult{.exit_code = 0};
  };
  // Built before the GPU is leased (the lease is exclusive; builds need no GPU), run after the HIP tests.
  ASSERT_TRUE(MakeValidator().BuildCudaReference(state).ok());
  ASSERT_EQ(launcher_.specs.size(), 1u);
  EXPECT_THAT(state.report.gpu.cuda_reference, HasSubstr("its tests did not run"));
  ASSERT_TRUE(validator_->RunCudaReference(state).ok());
  ASSERT_GE(launcher_.specs.size(), 2u);
  // The build: the tree's own Makefile, in a private copy, with the reference nvcc and the GPU's arch.
  const ProcessSpec& make = launcher_.specs[0];
  EXPECT_EQ(std::filesystem::path(make.argv[0]).filename(), "make");  // the worker's make, by its full path
  EXPECT_THAT(make.argv, ::testing::Contains("NVCC=/opt/hip-on-cuda/reference/bin/nvcc"));
  EXPECT_THAT(make.argv, ::testing::Contains("ARCH=sm_90"));
  EXPECT_TRUE(fs::equivalent(make.working_directory, state.work_dir / "cuda-sm_90/src"));
  EXPECT_TRUE(fs::exists(state.work_dir / "cuda-sm_90/src/main.cu"));
  EXPECT_THAT(make.environment.at("PATH"), ::testing::StartsWith("/opt/hip-on-cuda/reference/bin:"));
  EXPECT_EQ(make.environment.at("HIPFORGE_CUDA_ARCH"), "sm_90");
  EXPECT_EQ(make.environment.count("HIPCC_COMPILE_FLAGS_APPEND"), 0u) << "nothing HIP-specific";
  const ProcessSpec& test = launcher_.specs[1];
  EXPECT_EQ(test.environment.at("PATH"), "/opt/hip-on-cuda/reference/bin:/usr/bin");
  EXPECT_EQ(test.environment.at("CUDA_VISIBLE_DEVICES"), "0") << "the leased GPU only";
  // The same discovered test, run in the CUDA copy; its result sits beside the HIP one.
  EXPECT_THAT(test.argv.back(), HasSubstr((state.work_dir / "cuda-sm_90/src").string()));
  ASSERT_TRUE(state.report.tests[0].cuda.has_value());
  EXPECT_EQ(state.report.tests[0].cuda->status, TestStatus::kPassed);
  EXPECT_FALSE(state.report.tests[1].cuda.has_value()) << "no CUDA twin named ctest";
  ASSERT_NE(state.cuda, nullptr);
  EXPECT_EQ(state.cuda->outputs.at("make run"), "sum = 3.25\nPASS\n");
  EXPECT_THAT(state.report.gpu.cuda_reference, HasSubstr("built for sm_90 with its own build files"));
  EXPECT_THAT(state.report.gpu.cuda_reference, HasSubstr("ran the same tests: 1 of 1 passed"));
  EXPECT_THAT(state.report.gpu.cuda_reference, HasSubstr("1 HIP test(s) had no CUDA twin"));
}

TEST_F(RunCudaReferenceTest, AReferenceThatDoesNotBuildIsSaidAndNothingRuns) {
  Validator::State& state = RunState("sm_90");
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 2, .standard_error = "main.cu(1): error: identifier \"x\" is undefined\n"};
  };
  ASSERT_TRUE(MakeValidator().BuildCudaReference(state).ok());
  ASSERT_TRUE(validator_->RunCudaReference(state).ok());
  EXPECT_EQ(launcher_.specs.size(), 1u) << "no test runs without a build";
  EXPECT_THAT(state.report.gpu.cuda_reference, HasSubstr("did not build for sm_90 (make exited 2)"));
  EXPECT_FALSE(state.report.tests[0].cuda.has_value());
  EXPECT_EQ(state.cuda, nullptr);
}

TEST_F(RunCudaReferenceTest, NothingHappensOnAnAmdGpuOrWhenTurnedOffOrWithoutTheOriginal) {
  Validator::State& amd = RunState("gfx942");
  ASSERT_TRUE(MakeValidator().BuildCudaReference(amd).ok());
  EXPECT_TRUE(amd.report.gpu.cuda_reference.empty());

  options_.cuda_reference = false;
  Validator::State& off = RunState("sm_90");
  ASSERT_TRUE(MakeValidator().BuildCudaReference(off).ok());
  EXPECT_THAT(off.report.gpu.cuda_reference, HasSubstr("turned off"));

  options_.cuda_reference = true;
  Validator::State& missing = RunState("sm_90");
  request_.original_tree.clear();
  ASSERT_TRUE(MakeValidator().BuildCudaReference(missing).ok());
  EXPECT_THAT(missing.report.gpu.cuda_reference, HasSubstr("did not reach this worker"));
  EXPECT_TRUE(launcher_.specs.empty());
}

}  // namespace
}  // namespace hipforge::validate::testing
