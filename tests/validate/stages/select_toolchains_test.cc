#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class SelectToolchainsTest : public ValidatorStageTest {};

TEST_F(SelectToolchainsTest, ARootFilesystemIsOnlyUsedInsideTheSandbox) {
  options_.toolchains = {Toolchain{.name = "rocm-6.4", .rootfs = "/var/cache/rocm-6.4"},
                         Toolchain{.name = "local", .hipcc = "/opt/rocm/bin/hipcc"}};
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().SelectToolchains(state).ok());
  ASSERT_EQ(state.toolchains.size(), 1u);
  EXPECT_EQ(state.toolchains[0].name, "local");

  Validator::State& sandboxed = MakeState();
  sandboxed.sandbox_ok = true;
  ASSERT_TRUE(validator_->SelectToolchains(sandboxed).ok());
  ASSERT_EQ(sandboxed.toolchains.size(), 2u);
  EXPECT_EQ(sandboxed.toolchains[0].name, "rocm-6.4");
}

TEST_F(SelectToolchainsTest, NoneUsableMeansTheHostsHipccWithTheInventorysTargets) {
  options_.toolchains = {Toolchain{.name = "rocm-6.4", .rootfs = "/var/cache/rocm-6.4"}};
  options_.hipcc = "/usr/bin/hipcc";
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().SelectToolchains(state).ok());
  ASSERT_EQ(state.toolchains.size(), 1u);
  const Toolchain& host = state.toolchains[0];
  EXPECT_EQ(host.name, "host");
  EXPECT_EQ(host.hipcc, "/usr/bin/hipcc");
  EXPECT_EQ(host.description, "fake hipcc");
  EXPECT_EQ(host.probe.offload_archs, (std::vector<std::string>{"gfx90a", "gfx942"}));
  EXPECT_TRUE(state.report.gpu.warnings.empty());

  inventory_.targets = absl::UnavailableError("clang not found");
  Validator::State& unknown = MakeState();
  ASSERT_TRUE(validator_->SelectToolchains(unknown).ok());
  EXPECT_TRUE(unknown.toolchains[0].probe.offload_archs.empty());
  EXPECT_EQ(unknown.report.gpu.warnings, std::vector<std::string>{"toolchain targets unknown: clang not found"});
}

TEST_F(SelectToolchainsTest, TheLibrariesTheTreeUsesAreFound) {
  WriteFile(request_.translated_tree / "gemm.cpp", "#include <hipblas/hipblas.h>\nint main() {}\n");
  Validator::State& state = MakeState();
  ASSERT_TRUE(MakeValidator().SelectToolchains(state).ok());
  ASSERT_EQ(state.needed_libraries.size(), 1u);
  EXPECT_EQ(state.needed_libraries[0].library, "hipblas");
  EXPECT_EQ(state.needed_libraries[0].line, 1);
}

}  // namespace
}  // namespace hipforge::validate::testing
