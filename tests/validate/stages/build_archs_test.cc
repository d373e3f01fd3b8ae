// BuildArchs' choices before a build runs (the builds themselves: tests/validate/validator_test.cc and
// toolchain_build_test.cc, with real toolchains).
#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class BuildArchsTest : public ValidatorStageTest {};

TEST_F(BuildArchsTest, ALibraryNoToolchainHasIsAnErrorAtItsUseNotABuild) {
  request_.requested_archs = {"gfx90a"};
  Validator::State& state = MakeState();
  state.toolchains = {Toolchain{.name = "rocm-6.4", .probe = {.hip_version = "6.4.3", .offload_archs = {"gfx90a"}}}};
  state.needed_libraries = {LibraryUse{.library = "hipblas", .file = "src/gemm.cpp", .line = 3,
                                       .text = "#include <hipblas/hipblas.h>"}};
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  ASSERT_EQ(state.report.builds.size(), 1u);
  const BuildResult& build = state.report.builds[0];
  EXPECT_FALSE(build.ok);
  EXPECT_EQ(build.requested_arch, "gfx90a");
  ASSERT_EQ(build.errors.size(), 1u);
  EXPECT_EQ(build.errors[0].path, "src/gemm.cpp");
  EXPECT_EQ(build.errors[0].line, 3);
  EXPECT_NE(build.errors[0].message.find("needs hipBLAS"), std::string::npos) << build.errors[0].message;
  EXPECT_EQ(build.log_excerpt, build.errors[0].message);
  EXPECT_TRUE(state.built_archs.empty());
  EXPECT_TRUE(launcher_.specs.empty()) << "nothing was built";
}

TEST_F(BuildArchsTest, ACancelledJobBuildsNothing) {
  const std::atomic<bool> cancelled{true};
  request_.cancelled = &cancelled;
  request_.requested_archs = {"gfx90a", "gfx942"};
  Validator::State& state = MakeState();
  state.toolchains = {Toolchain{.name = "host", .probe = {.offload_archs = {"gfx90a", "gfx942"}}}};
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  EXPECT_TRUE(state.builds.empty());
  EXPECT_TRUE(launcher_.specs.empty());
}

}  // namespace
}  // namespace hipforge::validate::testing
