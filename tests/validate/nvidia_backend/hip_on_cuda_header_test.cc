#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/process.h"
#include "worker/translate/tables/mapping_index.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(HipOnCudaHeaderTest, MapsHipNamesBackToCuda) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  ASSERT_TRUE(files.count("hipforge_hip_on_cuda.h"));
  ASSERT_TRUE(files.count("hip/hip_runtime.h"));
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common, HasSubstr("#define hipMalloc cudaMalloc\n"));
  EXPECT_THAT(common, HasSubstr("#define hipDeviceProp_t cudaDeviceProp\n"));
  EXPECT_THAT(common, HasSubstr("#define hipLaunchKernelGGL("));
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define cuda")));  // CUDA's own names are never touched
  EXPECT_THAT(files["hip/hip_runtime.h"], HasSubstr("#include <cuda_runtime.h>"));
}

// With the CUDA toolkit's nvcc present (CUDA 13 here), a translated HIP program compiles for sm_90.
TEST(HipOnCudaHeaderTest, NvccCompilesHipSourceAgainstTheGeneratedHeaders) {
  const fs::path nvcc = fs::exists("/usr/local/cuda/bin/nvcc") ? fs::path("/usr/local/cuda/bin/nvcc")
                                                               : FindProgram("nvcc");
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc";
  const fs::path dir = fs::temp_directory_path() / ("hip-on-cuda-" + std::to_string(::getpid()));
  for (const auto& [relative, text] : GenerateHipOnCudaHeaders(translate::AllTables())) {
    fs::create_directories((dir / "include" / relative).parent_path());
    std::ofstream(dir / "include" / relative) << text;
  }
  std::ofstream(dir / "app.cu") << R"(#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(float* x) { float v = threadIdx.x; x[threadIdx.x] = v + __shfl_xor(v, 1); }
int main() {
  float* d = nullptr;
  if (hipMalloc(&d, 64 * sizeof(float)) != hipSuccess) return 1;
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  return hipFree(d) == hipSuccess ? 0 : 1;
}
)";
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {nvcc.string(), "-arch=sm_90", "-I", (dir / "include").string(), "-c",
                                       (dir / "app.cu").string(), "-o", (dir / "app.o").string()},
                              .timeout = std::chrono::minutes(5)});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 0) << result->standard_error;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hipforge::validate
