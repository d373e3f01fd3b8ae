// The HIP-on-NVIDIA toolchain of the NVIDIA validate pool: a migrated tree builds with its own build files
// (CMake with find_package(hip), a Makefile mixing objects and sources) through the generated hipcc over nvcc.
// Needs nvcc (CUDA 13 here and on the GPU host); no GPU.
#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/validate/test_support.h"
#include "worker/validate/tree_builder.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const char* kHipSource = R"(#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void Sum(const float* in, float* out, int n) {
  float v = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (threadIdx.x == 0) *out = v;
}
int main() {
  float *in, *out;
  hipMalloc(&in, 32 * sizeof(float));
  hipMalloc(&out, sizeof(float));
  hipLaunchKernelGGL(Sum, dim3(1), dim3(32), 0, 0, in, out, 32);
  Sum<<<1, 32>>>(in, out, 32);
  printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  hipFree(in);
  hipFree(out);
  return 0;
}
)";

class HipOnCudaToolchainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (FindProgram("nvcc").empty() && !fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no nvcc";
    absl::StatusOr<Toolchain> made =
        MakeHipOnCudaToolchain(launcher_, {.dir = scratch_.path() / "toolchain", .archs = {"sm_90"}});
    ASSERT_TRUE(made.ok()) << made.status();
    toolchain_ = *made;
    context_.environment["PATH"] = toolchain_.hipcc.parent_path().string() + ":/usr/local/cuda/bin:/usr/bin:/bin";
    context_.environment["HOME"] = scratch_.path().string();
  }
  BuildOutcome Build(const fs::path& tree) {
    TreeBuilder builder(launcher_, BuildToolchain{.hipcc = toolchain_.hipcc, .parallel_jobs = 2});
    return builder.Build({.source_dir = tree, .build_dir = tree.parent_path() / "build", .arch = "sm_90"}, context_);
  }

  BoostProcessLauncher launcher_;
  testing::ScratchDir scratch_{"hip-on-cuda"};
  Toolchain toolchain_;
  ExecutionContext context_;
};

TEST_F(HipOnCudaToolchainTest, DescribesItselfAsHipOnNvidia) {
  EXPECT_EQ(toolchain_.name, kHipOnCudaToolchainName);
  EXPECT_EQ(toolchain_.HipRelease(), "6.4");
  EXPECT_TRUE(toolchain_.HasArch("sm_90"));
  EXPECT_THAT(toolchain_.Describe(), HasSubstr("on NVIDIA"));
  ProcessSpec version;
  version.argv = {toolchain_.hipcc.string(), "--version"};
  version.environment = context_.environment;
  absl::StatusOr<ProcessResult> result = launcher_.Run(version);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->standard_output, HasSubstr("HIP version: 6.4"));
  EXPECT_THAT(result->standard_output, HasSubstr("Cuda compilation tools"));
}

TEST_F(HipOnCudaToolchainTest, ACMakeTreeWithFindPackageHipBuildsForSm90) {
  const fs::path tree = scratch_.path() / "cmake" / "src";
  testing::WriteFile(tree / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX)
find_package(hip REQUIRED)
add_executable(app src/app.cu)
set_source_files_properties(src/app.cu PROPERTIES LANGUAGE CXX)
target_compile_options(app PRIVATE -ffast-math -gline-tables-only)
target_link_libraries(app hip::device)
set(CMAKE_CXX_STANDARD 17)
)");
  testing::WriteFile(tree / "src/app.cu", kHipSource);
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "app"));
}

TEST_F(HipOnCudaToolchainTest, AMakefileThatLinksObjectsAndSourcesBuilds) {
  const fs::path tree = scratch_.path() / "make" / "src";
  testing::WriteFile(tree / "Makefile", "app: kernel.o main.cpp\n\t$(HIPCC) -O2 -std=c++17 -Wall kernel.o main.cpp -o app\n"
                                        "kernel.o: kernel.cpp\n\t$(HIPCC) -O2 -fPIC -c kernel.cpp -o kernel.o\n");
  testing::WriteFile(tree / "kernel.cpp", std::string(kHipSource).substr(0, std::string(kHipSource).find("int main")));
  testing::WriteFile(tree / "main.cpp", "#include <hip/hip_runtime.h>\nint main() { return hipDeviceSynchronize() == hipSuccess ? 0 : 1; }\n");
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree / "app"));
}

}  // namespace
}  // namespace hipforge::validate
