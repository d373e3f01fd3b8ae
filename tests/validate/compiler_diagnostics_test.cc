#include "worker/validate/compiler_diagnostics.h"

#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/support/compiler_tmp.h"
#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

using testing::TestData;

// Real hipcc error on the translated file, mapped back to the CUDA file, whose line numbers differ
// by two (the translation added two lines at the top).
TEST(CompilerDiagnosticsTest, RealHipccErrorMapsToOriginalCudaLine) {
  if (!testing::HaveHipcc()) GTEST_SKIP() << "hipcc not installed";
  testing::ScratchDir dir("diag");
  BoostProcessLauncher launcher;
  auto result = hipforge::testing::RunWithPrivateTmp(
      launcher,
      {.argv = {"hipcc", "--offload-arch=gfx90a", "-c", "kernels.cu", "-o", (dir.path() / "k.o").string()},
       .working_directory = TestData("broken_hip")},
      dir.path());
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_NE(result->exit_code, 0);
  auto raw = ParseBuildErrors(result->standard_error);
  ASSERT_FALSE(raw.empty()) << result->standard_error;
  EXPECT_EQ(raw[0].path, "kernels.cu");
  EXPECT_EQ(raw[0].line, 11);
  // hipcc reports the error once per pass (host and device): deduplicated.
  EXPECT_EQ(raw.size(), 1u) << result->standard_error;

  auto mapper = SourceMapper::Create(TestData("broken_hip"), TestData("broken_cuda"), {});
  ASSERT_TRUE(mapper.ok()) << mapper.status();
  auto errors = MapBuildErrors(raw, *mapper, TestData("broken_hip"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "kernels.cu");
  EXPECT_EQ(errors[0].line, 9);  // the line of `undefined_helper` in broken_cuda/kernels.cu
  EXPECT_NE(errors[0].message.find("undefined_helper"), std::string::npos);
}

TEST(CompilerDiagnosticsTest, ParsesLinkerDriverAndCMakeErrors) {
  const std::string log =
      "CMake Error at CMakeLists.txt:12 (find_package):\n"
      "ld.lld: error: undefined symbol: hipblasSgemm\n"
      "clang: error: invalid target ID 'gfx942'; format is a processor name\n"
      "src/a.cu:3:10: fatal error: 'cuda/pipeline' file not found\n"
      "src/a.cu:3:10: fatal error: 'cuda/pipeline' file not found\n"
      "src/b.cu:7:1: warning: unused variable\n";
  auto errors = ParseBuildErrors(log);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].path, "CMakeLists.txt");
  EXPECT_EQ(errors[0].line, 12);
  EXPECT_EQ(errors[1].path, "");
  EXPECT_EQ(errors[1].message, "undefined symbol: hipblasSgemm");
  EXPECT_EQ(errors[2].path, "");
  EXPECT_EQ(errors[3].path, "src/a.cu");
  EXPECT_EQ(errors[3].column, 10);
}

// The HIP-on-NVIDIA layer's builds report nvcc's format; its warnings are not errors.
TEST(CompilerDiagnosticsTest, ParsesNvccErrors) {
  const std::string log =
      "src/ggml-cuda/common.cuh(434): warning #1305-D: function declared with \"noreturn\" does return\n"
      "src/ggml-cuda/fattn.cu(12): error: identifier \"hipFuncSetAttribute\" is undefined\n"
      "src/ggml-cuda/mmq.cu(3): catastrophic error: cannot open source file \"hip/hip_fp8.h\"\n";
  auto errors = ParseBuildErrors(log);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, "src/ggml-cuda/fattn.cu");
  EXPECT_EQ(errors[0].line, 12);
  EXPECT_EQ(errors[0].message, "identifier \"hipFuncSetAttribute\" is undefined");
  EXPECT_EQ(errors[1].path, "src/ggml-cuda/mmq.cu");
  EXPECT_EQ(errors[1].message, "cannot open source file \"hip/hip_fp8.h\"");
}

}  // namespace
}  // namespace hipforge::validate
