#include "worker/validate/job_environment.h"

#include <gtest/gtest.h>

namespace hipforge::validate {
namespace {

GpuDevice Mi250(int index) { return {.hip_index = index, .key = "0000:c1:00.0", .arch = "gfx90a", .instinct = true}; }

TEST(JobEnvironmentTest, ExactlyOneVisibilityVariableAndHsaChoices) {
  setenv("CUDA_VISIBLE_DEVICES", "0,1", 1);  // the worker's own environment must not leak
  GpuDevice device = Mi250(3);
  auto env = BuildJobEnvironment(
      {.device = &device,
       .requested = {{"HSA_OVERRIDE_GFX_VERSION", "9.0.8"}, {"HIP_VISIBLE_DEVICES", "0"}, {"OMP_NUM_THREADS", "4"}},
       .managed_memory = true,
       .work_dir = "/work/job1"});
  const auto& v = env.variables;
  EXPECT_EQ(v.at("ROCR_VISIBLE_DEVICES"), "3");
  for (const char* cleared : {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"}) {
    EXPECT_EQ(v.count(cleared), 0u) << cleared;
  }
  EXPECT_EQ(v.count("HSA_OVERRIDE_GFX_VERSION"), 0u);
  EXPECT_EQ(v.at("HSA_XNACK"), "1");
  EXPECT_EQ(v.count("AMD_SERIALIZE_KERNEL"), 0u);
  EXPECT_EQ(v.at("OMP_NUM_THREADS"), "4");
  EXPECT_EQ(v.at("HOME"), "/work/job1");
  ASSERT_EQ(env.warnings.size(), 2u);
  EXPECT_NE(env.warnings[0].find("HIP_VISIBLE_DEVICES"), std::string::npos);
  EXPECT_NE(env.warnings[1].find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos);
  unsetenv("CUDA_VISIBLE_DEVICES");
}

TEST(JobEnvironmentTest, HipVisibleDevicesWhenConfiguredAndSerializeOnRerun) {
  GpuDevice device = {.hip_index = 1, .key = "k", .arch = "gfx1100", .instinct = false};
  auto env = BuildJobEnvironment({.device = &device,
                                  .visibility = VisibilityVariable::kHipVisibleDevices,
                                  .requested = {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}},
                                  .serialize_kernels = true});
  EXPECT_EQ(env.variables.at("HIP_VISIBLE_DEVICES"), "1");
  EXPECT_EQ(env.variables.count("ROCR_VISIBLE_DEVICES"), 0u);
  EXPECT_EQ(env.variables.at("HSA_OVERRIDE_GFX_VERSION"), "11.0.0");  // allowed on a Radeon part
  EXPECT_EQ(env.variables.at("AMD_SERIALIZE_KERNEL"), "3");
  EXPECT_EQ(env.variables.count("HSA_XNACK"), 0u);
}

TEST(JobEnvironmentTest, CompileOnlyHidesAllGpus) {
  auto env = BuildJobEnvironment({.device = nullptr});
  EXPECT_EQ(env.variables.at("ROCR_VISIBLE_DEVICES"), "-1");
  EXPECT_EQ(env.variables.at("PATH"), "/usr/local/bin:/usr/bin:/bin");
}

}  // namespace
}  // namespace hipforge::validate
