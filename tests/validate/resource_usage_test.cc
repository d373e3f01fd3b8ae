#include "worker/validate/resource_usage.h"

#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/support/compiler_tmp.h"
#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

using testing::HaveHipcc;
using testing::TestData;

const KernelResources* Find(const std::vector<KernelResources>& kernels, const std::string& prefix) {
  for (const auto& k : kernels) {
    if (k.name.rfind(prefix, 0) == 0) return &k;
  }
  return nullptr;
}

// The real thing: Debian's hipcc 5.2 (clang 15) compiling for gfx90a.
TEST(ResourceUsageTest, ParsesRealHipccRemarksForGfx90a) {
  if (!HaveHipcc()) GTEST_SKIP() << "hipcc not installed";
  testing::ScratchDir dir("remarks");
  BoostProcessLauncher launcher;
  auto result = hipforge::testing::RunWithPrivateTmp(
      launcher,
      {.argv = {"hipcc", "--offload-arch=gfx90a", "-Rpass-analysis=kernel-resource-usage", "-c",
                TestData("saxpy_hip/saxpy.cu").string(), "-o", (dir.path() / "s.o").string()}},
      dir.path());
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->exit_code, 0) << result->standard_error;
  auto kernels = ParseKernelResourceRemarks(result->standard_error);
  ASSERT_EQ(kernels.size(), 2u) << result->standard_error;
  const KernelResources* saxpy = Find(kernels, "saxpy(");
  const KernelResources* sum = Find(kernels, "block_sum(");
  ASSERT_NE(saxpy, nullptr);
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(saxpy->name, "saxpy(int, float, float const*, float*)");  // demangled
  EXPECT_GT(saxpy->vgprs, 0);
  EXPECT_GT(saxpy->sgprs, 0);
  EXPECT_EQ(saxpy->agprs, 0);
  EXPECT_EQ(saxpy->scratch_bytes, 0);
  EXPECT_GT(saxpy->occupancy, 0);
  EXPECT_EQ(saxpy->spills, 0);
  EXPECT_EQ(saxpy->lds_bytes, 0);
  EXPECT_EQ(sum->lds_bytes, 1024);  // __shared__ float partial[256]
}

// LLVM 15 spelling as hipcc 5.2 prints it (copied from a real run's shape) and the newer spelling
// (TotalSGPRs, Kernel Name, bytes/thread, Dynamic Stack) in one log.
TEST(ResourceUsageTest, AcceptsOldAndNewSpellings) {
  const std::string log =
      "k.hip:2:1: remark: Function Name: _Z5saxpyfPKfPfi [-Rpass-analysis=kernel-resource-usage]\n"
      "__global__ void saxpy(float a, const float* x, float* y, int n) {\n"
      "^\n"
      "k.hip:2:1: remark:     SGPRs: 11 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     VGPRs: 4 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     AGPRs: 0 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     ScratchSize [bytes/lane]: 16 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     SGPRs Spill: 2 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     VGPRs Spill: 3 [-Rpass-analysis=kernel-resource-usage]\n"
      "k.hip:2:1: remark:     LDS Size [bytes/block]: 0 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark: Kernel Name: gemm_tile [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     TotalSGPRs: 96 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     VGPRs: 128 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     AGPRs: 64 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     ScratchSize [bytes/thread]: 0 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     Dynamic Stack: False [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     Occupancy [waves/SIMD]: 2 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     SGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     VGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]\n"
      "m.hip:9:1: remark:     LDS Size [bytes/block]: 32768 [-Rpass-analysis=kernel-resource-usage]\n"
      // the same kernel reported again by a second translation unit: kept once
      "k2.hip:2:1: remark: Function Name: _Z5saxpyfPKfPfi [-Rpass-analysis=kernel-resource-usage]\n"
      "k2.hip:2:1: remark:     VGPRs: 99 [-Rpass-analysis=kernel-resource-usage]\n";
  auto kernels = ParseKernelResourceRemarks(log);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "saxpy(float, float const*, float*, int)");
  EXPECT_EQ(kernels[0].sgprs, 11);
  EXPECT_EQ(kernels[0].vgprs, 4);
  EXPECT_EQ(kernels[0].scratch_bytes, 16);
  EXPECT_EQ(kernels[0].spills, 5);
  EXPECT_EQ(kernels[1].name, "gemm_tile");
  EXPECT_EQ(kernels[1].sgprs, 96);
  EXPECT_EQ(kernels[1].agprs, 64);
  EXPECT_EQ(kernels[1].occupancy, 2);
  EXPECT_EQ(kernels[1].lds_bytes, 32768);
}

}  // namespace
}  // namespace hipforge::validate
