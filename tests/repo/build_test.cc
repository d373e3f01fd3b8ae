// The migrated example projects build with this machine's hipcc for gfx90a (compile and link; no GPU needed).
#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/repo/repo_test_support.h"

namespace hipforge::translate {
namespace {
namespace fs = std::filesystem;

ProcessResult RunOrFail(const std::vector<std::string>& argv, const fs::path& directory) {
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = argv;
  spec.working_directory = directory;
  spec.timeout = std::chrono::minutes(20);
  auto result = launcher.Run(spec);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

// Configures with hipcc as the C++ compiler (Debian has no hip-lang under <ROCm>/lib/cmake, so the
// generated CMake takes its hipcc branch) and builds.
void ConfigureAndBuild(const fs::path& tree) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  const ProcessResult configure =
      RunOrFail({"cmake", "-S", tree.string(), "-B", (tree / "build").string(), "-G", "Ninja",
                 "-DCMAKE_CXX_COMPILER=hipcc", "-DCMAKE_HIP_ARCHITECTURES=gfx90a"},
                tree);
  ASSERT_EQ(configure.exit_code, 0) << configure.standard_output << configure.standard_error;
  const ProcessResult build = RunOrFail({"cmake", "--build", (tree / "build").string(), "-j2"}, tree);
  ASSERT_EQ(build.exit_code, 0) << build.standard_output << build.standard_error;
  const std::string ninja = ReadText(tree / "build/build.ninja");
  EXPECT_NE(ninja.find("--offload-arch=gfx90a"), std::string::npos);
}

TEST(MigratedBuildTest, HipReadyCMakeProjectBuildsWithHipcc) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("cmake_hip_ready"), temp.path() / "out", options);
  ConfigureAndBuild(temp.path() / "out");
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/hipready"));
}

TEST(MigratedBuildTest, CMakeProjectWithLibrariesBuildsWithHipcc) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("cmake_app"), temp.path() / "out", options);
  ConfigureAndBuild(temp.path() / "out");
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/vecops_app"));
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/src/libvecops_reduce.so"));
}

TEST(MigratedBuildTest, MakefileProjectCompilesWithHipcc) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  TempDir temp;
  MigrationOptions options;
  options.hip_architectures = {"gfx90a"};  // Debian's clang 15 has no gfx942
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_app"), temp.path() / "out", options);
  // Objects only: the example also links hipBLAS (from -lcublas), which Debian bookworm does not ship.
  const ProcessResult make =
      RunOrFail({"make", "ROCM_PATH=/usr", "src/stencil.o", "src/main.o"}, temp.path() / "out");
  ASSERT_EQ(make.exit_code, 0) << make.standard_output << make.standard_error;
  EXPECT_NE(make.standard_output.find("/usr/bin/hipcc"), std::string::npos) << make.standard_output;
  EXPECT_NE(make.standard_output.find("--offload-arch=gfx90a"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::translate
