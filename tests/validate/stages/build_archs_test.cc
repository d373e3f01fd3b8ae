// BuildArchs' choices before a build runs (the builds themselves: tests/validate/validator_test.cc and
// toolchain_build_test.cc, with real toolchains).
#include <fstream>

#include "tests/validate/stages/stage_test_support.h"

namespace hipforge::validate::testing {
namespace {

class BuildArchsTest : public ValidatorStageTest {};

// A library no toolchain has is tried, not refused: whether the build needs it is the build's to say.
class MissingLibraryBuildTest : public BuildArchsTest {
 protected:
  Validator::State& StateNeedingHipblas() {
    request_.requested_archs = {"gfx90a"};
    std::ofstream(request_.translated_tree / "Makefile") << "all:\n\thipcc -c src/gemm.cpp\n";
    Validator::State& state = MakeState();
    state.toolchains = {Toolchain{.name = "rocm-6.4", .probe = {.hip_version = "6.4.3", .offload_archs = {"gfx90a"}}}};
    state.needed_libraries = {
        LibraryUse{.library = "hipblas", .file = "src/gemm.cpp", .line = 3, .text = "#include <hipblas/hipblas.h>"}};
    return state;
  }
};

TEST_F(MissingLibraryBuildTest, ABuildThatFailsOnItNamesTheLibraryAtItsUseFirst) {
  Validator::State& state = StateNeedingHipblas();
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 2,
                         .standard_output = "src/gemm.cpp:3:10: fatal error: 'hipblas/hipblas.h' file not found\n"};
  };
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  ASSERT_EQ(state.report.builds.size(), 1u);
  const BuildResult& build = state.report.builds[0];
  EXPECT_FALSE(build.ok);
  EXPECT_EQ(build.requested_arch, "gfx90a");
  ASSERT_FALSE(build.errors.empty());
  EXPECT_EQ(build.errors[0].path, "src/gemm.cpp");
  EXPECT_EQ(build.errors[0].line, 3);
  EXPECT_NE(build.errors[0].message.find("needs hipBLAS"), std::string::npos) << build.errors[0].message;
  EXPECT_TRUE(build.log_excerpt.starts_with(build.errors[0].message)) << build.log_excerpt;
  EXPECT_TRUE(state.built_archs.empty());
  EXPECT_FALSE(launcher_.specs.empty()) << "the build was tried";
}

TEST_F(MissingLibraryBuildTest, ABuildThatFailsOnSomethingElseKeepsItsOwnErrors) {
  Validator::State& state = StateNeedingHipblas();
  launcher_.answer = [](const ProcessSpec&) -> absl::StatusOr<ProcessResult> {
    return ProcessResult{.exit_code = 2,
                         .standard_output = "src/main.cpp:7:3: error: use of undeclared identifier 'x'\n"};
  };
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  const BuildResult& build = state.report.builds.at(0);
  EXPECT_FALSE(build.ok);
  for (const BuildError& error : build.errors) {
    EXPECT_EQ(error.message.find("needs hipBLAS"), std::string::npos) << error.message;
  }
}

TEST_F(MissingLibraryBuildTest, ABuildThatSucceedsWithoutItSaysSoInItsNote) {
  Validator::State& state = StateNeedingHipblas();
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  const BuildResult& build = state.report.builds.at(0);
  EXPECT_TRUE(build.ok) << build.log_excerpt;
  EXPECT_TRUE(build.errors.empty());
  EXPECT_NE(build.note.find("src/gemm.cpp:3 (hipblas)"), std::string::npos) << build.note;
  EXPECT_EQ(state.built_archs.count("gfx90a"), 1u);
}

TEST_F(BuildArchsTest, TheManifestsBuildTimeoutBoundsEveryBuildStep) {
  request_.requested_archs = {"gfx90a"};
  std::ofstream(request_.translated_tree / "Makefile") << "all:\n\thipcc -c main.cpp\n";
  options_.build_timeout = std::chrono::minutes(20);
  Validator::State& state = MakeState();
  state.manifest.build.timeout = std::chrono::seconds(1500);  // hipforge.yaml build.timeout_s: ggml needs more
  state.toolchains = {Toolchain{.name = "rocm-6.4", .probe = {.hip_version = "6.4.3", .offload_archs = {"gfx90a"}}}};
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  ASSERT_FALSE(launcher_.specs.empty());
  for (const ProcessSpec& spec : launcher_.specs) {
    EXPECT_GT(spec.timeout, std::chrono::minutes(20)) << spec.argv.front();
    EXPECT_LE(spec.timeout, std::chrono::seconds(1500)) << spec.argv.front();
  }
}

// make cannot build below a path with ':': ggml's sm_90:wave64 build failed "target pattern contains no '%'".
TEST_F(BuildArchsTest, ATargetIdWithFeaturesBuildsInADirectoryWithoutAColon) {
  request_.requested_archs = {"gfx90a:xnack+"};
  std::ofstream(request_.translated_tree / "Makefile") << "all:\n\thipcc -c main.cpp\n";
  Validator::State& state = MakeState();
  state.toolchains = {Toolchain{.name = "rocm-6.4", .probe = {.hip_version = "6.4.3", .offload_archs = {"gfx90a"}}}};
  ASSERT_TRUE(MakeValidator().BuildArchs(state).ok());
  ASSERT_FALSE(launcher_.specs.empty());
  for (const ProcessSpec& spec : launcher_.specs) {
    EXPECT_EQ(spec.working_directory.string().find(':'), std::string::npos) << spec.working_directory;
    for (const std::string& arg : spec.argv) {
      if (arg.rfind(state.work_dir.string(), 0) == 0) EXPECT_EQ(arg.find(':'), std::string::npos) << arg;
    }
  }
  EXPECT_EQ(state.report.builds.at(0).arch, "gfx90a:xnack+");  // the report keeps the target ID
  EXPECT_EQ(TargetDirectoryName("sm_90:wave64"), "sm_90-wave64");
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
