// The migrated example projects build with this machine's hipcc for gfx90a (compile and link; no GPU needed).
#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/repo/repo_test_support.h"
#include "tests/support/compiler_tmp.h"

namespace hipforge::translate {
namespace {
namespace fs = std::filesystem;

ProcessResult RunOrFail(const std::vector<std::string>& argv, const fs::path& directory) {
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = argv;
  spec.working_directory = directory;
  spec.timeout = std::chrono::minutes(20);
  // The tree's compiler-tmp/: clang's temp dirs (tests/support/compiler_tmp.h), removed after the run.
  auto result = hipforge::testing::RunWithPrivateTmp(launcher, spec, directory);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

// Configures with hipcc as the C++ compiler (Debian has no hip-lang under <ROCm>/lib/cmake, so the
// generated CMake takes its hipcc branch) and builds.
void ConfigureAndBuild(const fs::path& tree, const std::vector<std::string>& extra_configure_arguments = {}) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  std::vector<std::string> configure_command = {"cmake",
                                                "-S",
                                                tree.string(),
                                                "-B",
                                                (tree / "build").string(),
                                                "-G",
                                                "Ninja",
                                                "-DCMAKE_CXX_COMPILER=hipcc",
                                                "-DCMAKE_HIP_ARCHITECTURES=gfx90a"};
  configure_command.insert(configure_command.end(), extra_configure_arguments.begin(), extra_configure_arguments.end());
  const ProcessResult configure = RunOrFail(configure_command, tree);
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

// CMAKE_CUDA_FLAGS[_RELEASE] set (and wiped, CloverLeaf-style) in a subdirectory reach that directory's HIP
// sources and only them (the sources #error otherwise), a CUDA_SEPARABLE_COMPILATION library with a device
// function defined in another file links (-fgpu-rdc with the lld of hipcc's clang), and a library named in a
// project macro ("nvidia-ml") links as rocm_smi64.
TEST(MigratedBuildTest, SubdirectoryFlagsRelocatableDeviceCodeAndProjectLibrariesBuild) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("cmake_subdir_flags"), temp.path() / "out", options);
  ConfigureAndBuild(temp.path() / "out", {"-DCMAKE_BUILD_TYPE=Release"});
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/app/subdir_app"));
  const std::string ninja = ReadText(temp.path() / "out/build/build.ninja");
  EXPECT_NE(ninja.find("-fgpu-rdc"), std::string::npos);
  EXPECT_NE(ninja.find("-lrocm_smi64"), std::string::npos);
}

// CUDA enabled only in a subdirectory (ggml's src/ggml-cuda): the HIP block's end-of-configure step runs in the
// top directory and still knows the HIP source language; the nvcc flags of a list variable reach hipcc mapped;
// the C library that includes the project's public C header compiles (the header gets no HIP include).
TEST(MigratedBuildTest, CudaInSubdirectoryWithFlagsVariableAndCHeaderBuilds) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("cmake_cuda_in_subdir"), temp.path() / "out", options);
  EXPECT_EQ(ReadText(temp.path() / "out/include/api.h"), ReadText(RepoData("cmake_cuda_in_subdir") / "include/api.h"));
  ConfigureAndBuild(temp.path() / "out");
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/gpu/libgpu.a"));
  EXPECT_TRUE(fs::exists(temp.path() / "out/build/libapi.a"));
  const std::string ninja = ReadText(temp.path() / "out/build/build.ninja");
  EXPECT_NE(
      ninja.find(
          "-fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fcuda-approx-transcendentals"),
      std::string::npos);
  EXPECT_EQ(ninja.find("extended-lambda"), std::string::npos);
}

// -rdc=true in a Makefile whose device code does not cross files is dropped (with a note): hipcc links it
// without a device-link step, which Debian's lld 14 could not run on clang 15 output.
TEST(MigratedBuildTest, MakefileRelocatableDeviceCodeDroppedAndBuilds) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  TempDir temp;
  MigrationOptions options;
  options.hip_architectures = {"gfx90a"};
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_rdc"), temp.path() / "out", options);
  const ProcessResult make = RunOrFail({"make", "all"}, temp.path() / "out");
  ASSERT_EQ(make.exit_code, 0) << make.standard_output << make.standard_error;
  EXPECT_EQ(make.standard_output.find("-fgpu-rdc"), std::string::npos) << make.standard_output;
  EXPECT_NE(make.standard_output.find("--offload-arch=gfx90a"), std::string::npos);
  EXPECT_TRUE(fs::exists(temp.path() / "out/saxpy-cuda"));
}

TEST(MigratedBuildTest, MakefileProjectCompilesWithHipcc) {
  if (FindProgram("hipcc").empty()) GTEST_SKIP() << "hipcc not installed";
  TempDir temp;
  MigrationOptions options;
  options.hip_architectures = {"gfx90a"};  // Debian's clang 15 has no gfx942
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_app"), temp.path() / "out", options);
  // Objects only: the example also links hipBLAS (from -lcublas), which Debian bookworm does not ship.
  const ProcessResult make = RunOrFail({"make", "ROCM_PATH=/usr", "src/stencil.o", "src/main.o"}, temp.path() / "out");
  ASSERT_EQ(make.exit_code, 0) << make.standard_output << make.standard_error;
  EXPECT_NE(make.standard_output.find("/usr/bin/hipcc"), std::string::npos) << make.standard_output;
  EXPECT_NE(make.standard_output.find("--offload-arch=gfx90a"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::translate
