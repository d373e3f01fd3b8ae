// CMake's compiler checks kept across jobs (worker/translate/repo/cmake_compiler_checks.h): when a project may
// share them, that the probe runs once per toolchain, and, with the real cmake under the sandbox, that a seeded
// configure skips the checks and gives the same compile commands.
#include "worker/translate/repo/cmake_compiler_checks.h"

#include <gtest/gtest.h>

#include <fstream>

#include "absl/strings/str_replace.h"
#include "tests/repo/repo_test_support.h"
#include "worker/translate/repo/build_commands.h"
#include "worker/userbuild/sandbox.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

TEST(CompilerChecksAreSharedTest, OnlyWhereNothingBeforeProjectOrInTheOptionsChangesThem) {
  const std::string plain = "cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)\n";
  EXPECT_TRUE(CompilerChecksAreShared(plain, {}));
  EXPECT_TRUE(CompilerChecksAreShared(plain, {"-DGGML_CUDA=ON"}));
  EXPECT_TRUE(CompilerChecksAreShared(plain + "set(CMAKE_CXX_FLAGS \"-O3\")\n", {}));  // after project(): no effect
  EXPECT_TRUE(CompilerChecksAreShared("PROJECT (demo CXX)\n", {}));
  EXPECT_FALSE(CompilerChecksAreShared("set(CMAKE_CXX_COMPILER clang++)\n" + plain, {}));
  EXPECT_FALSE(CompilerChecksAreShared("set(CMAKE_CUDA_FLAGS \"-ccbin g++-11\")\n" + plain, {}));
  EXPECT_FALSE(CompilerChecksAreShared("set(CMAKE_CUDA_ARCHITECTURES 90)\n" + plain, {}));
  EXPECT_FALSE(CompilerChecksAreShared("include(cmake/toolchain.cmake)\n" + plain, {}));
  EXPECT_FALSE(CompilerChecksAreShared(plain, {"-DCMAKE_CUDA_HOST_COMPILER=/usr/bin/g++-12"}));
  EXPECT_FALSE(CompilerChecksAreShared(plain, {"-DCMAKE_TOOLCHAIN_FILE=x.cmake"}));
  EXPECT_FALSE(CompilerChecksAreShared("add_subdirectory(src)\n", {}));  // no project(): CMake's own default one
}

TEST(CompilerChecksAreSharedTest, ALanguageEnabledLaterAfterItsCompilerWasSetIsNot) {
  EXPECT_TRUE(LaterLanguagesShareChecks("set(X 1)\n"));
  // ggml's ggml-cuda: architectures before enable_language(CUDA) (the configure's -D decides them) and a HIP
  // compiler before enable_language(HIP) (a language the probe does not check).
  EXPECT_TRUE(
      LaterLanguagesShareChecks("if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES native)\n"
                                "endif()\nenable_language(CUDA)\n"));
  EXPECT_TRUE(LaterLanguagesShareChecks("set(CMAKE_HIP_FLAGS_DEBUG -g)\nenable_language(HIP)\n"));
  EXPECT_TRUE(LaterLanguagesShareChecks("enable_language(CUDA)\nset(CMAKE_CUDA_FLAGS \"-O3\")\n"));
  EXPECT_FALSE(LaterLanguagesShareChecks("set(CMAKE_CUDA_HOST_COMPILER g++-11)\nenable_language(CUDA)\n"));
  EXPECT_FALSE(LaterLanguagesShareChecks("set(CMAKE_CUDA_FLAGS \"-ccbin g++-11\")\nENABLE_LANGUAGE(CUDA)\n"));
  EXPECT_FALSE(LaterLanguagesShareChecks("set(CMAKE_CXX_COMPILER icx)\nenable_language(C)\nenable_language(CXX)\n"));
}

// A probe that leaves what CMake leaves: the checks' files in CMakeFiles/<version>/ and others beside them.
struct FakeConfigure {
  int runs = 0;
  bool succeed = true;
  bool operator()(const fs::path& source, const fs::path& build) {
    ++runs;
    EXPECT_TRUE(fs::exists(source / "CMakeLists.txt"));
    WriteText(build / "CMakeFiles/3.99.1/CMakeSystem.cmake", "set(CMAKE_SYSTEM_NAME Linux)\n");
    WriteText(build / "CMakeFiles/3.99.1/CMakeCXXCompiler.cmake", "set(CMAKE_CXX_COMPILER /usr/bin/c++)\n");
    WriteText(build / "CMakeFiles/3.99.1/CMakeCUDACompiler.cmake", "set(CMAKE_CUDA_COMPILER nvcc)\n");
    WriteText(build / "CMakeFiles/3.99.1/CompilerIdCXX/a.out", "binary");
    WriteText(build / "CMakeFiles/CMakeOutput.log", "log");
    return succeed;
  }
};

TEST(CMakeCompilerChecksTest, TheProbeRunsOncePerToolchainAndSeedsEachBuildDir) {
  TempDir dir;
  FakeConfigure configure;
  auto run = [&](const fs::path& source, const fs::path& build) { return configure(source, build); };
  const CMakeCompilerChecks checks(dir.path() / "cache", {"-DCMAKE_CUDA_COMPILER=nvcc", "c++ /usr/bin/c++ 1 2"});
  ASSERT_TRUE(checks.Seed(dir.path() / "job1/build", dir.path() / "job1/probe", run));
  ASSERT_TRUE(checks.Seed(dir.path() / "job2/build", dir.path() / "job2/probe", run));
  EXPECT_EQ(configure.runs, 1);
  const fs::path seeded = dir.path() / "job2/build/CMakeFiles/3.99.1";
  EXPECT_EQ(ReadText(seeded / "CMakeCXXCompiler.cmake"), "set(CMAKE_CXX_COMPILER /usr/bin/c++)\n");
  EXPECT_TRUE(fs::exists(seeded / "CMakeSystem.cmake"));
  EXPECT_TRUE(fs::exists(seeded / "CMakeCUDACompiler.cmake"));
  EXPECT_FALSE(fs::exists(seeded / "CompilerIdCXX")) << "only the checks' results are kept";
  EXPECT_EQ(ReadText(dir.path() / "job2/build/CMakeCache.txt"), "CMAKE_PLATFORM_INFO_INITIALIZED:INTERNAL=1\n");
  EXPECT_FALSE(fs::exists(dir.path() / "job2/probe")) << "the second job did not probe";

  // Another compiler is another key: probed again.
  const CMakeCompilerChecks other(dir.path() / "cache", {"-DCMAKE_CUDA_COMPILER=nvcc", "c++ /usr/bin/c++ 1 3"});
  ASSERT_TRUE(other.Seed(dir.path() / "job3/build", dir.path() / "job3/probe", run));
  EXPECT_EQ(configure.runs, 2);
}

TEST(CMakeCompilerChecksTest, AProbeThatFailsSeedsNothingAndIsNotRunAgain) {
  TempDir dir;
  FakeConfigure configure;
  configure.succeed = false;
  auto run = [&](const fs::path& source, const fs::path& build) { return configure(source, build); };
  const CMakeCompilerChecks checks(dir.path() / "cache", {"no nvcc"});
  EXPECT_FALSE(checks.Seed(dir.path() / "job1/build", dir.path() / "job1/probe", run));
  EXPECT_FALSE(checks.Seed(dir.path() / "job2/build", dir.path() / "job2/probe", run));
  EXPECT_EQ(configure.runs, 1) << "a toolchain without CUDA would pay the probe on every job";
  EXPECT_FALSE(fs::exists(dir.path() / "job2/build"));
  const CMakeCompilerChecks disabled(fs::path(), {"x"});
  EXPECT_FALSE(disabled.Seed(dir.path() / "job3/build", dir.path() / "job3/probe", run));
  EXPECT_EQ(configure.runs, 1);
}

TEST(CMakeCompilerChecksTest, ASeededConfigureSkipsTheChecksAndGivesTheSameCompileCommands) {
  {
    BoostProcessLauncher probe;
    if (!validate::ProbeSandbox(probe, "/usr/bin/bwrap").ok()) GTEST_SKIP() << "no sandbox";
  }
  if (!fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no CUDA toolkit at /usr/local/cuda";
  TempDir input;
  WriteText(input.path() / "src/scale.cu", "__global__ void scale(float* x) { x[threadIdx.x] *= 2.f; }\n");
  WriteText(input.path() / "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(scale LANGUAGES CXX CUDA)\n"
            "add_executable(scale src/scale.cu)\ntarget_compile_definitions(scale PRIVATE SCALE_TWICE)\n");
  TempDir work;
  BoostProcessLauncher launcher;
  auto discover = [&](const std::string& name, bool keep_checks) {
    BuildDiscoveryOptions options;
    options.scratch = work.path() / name;
    if (keep_checks) options.compiler_checks_directory = work.path() / "checks";
    BuildDiscovery discovery = DiscoverBuildCommands(launcher, input.path(), options);
    EXPECT_TRUE(discovery.compile_commands.has_value()) << (discovery.notes.empty() ? "" : discovery.notes.back());
    nlohmann::json commands = nlohmann::json::parse(ReadText(discovery.compile_commands.value_or(fs::path())), nullptr,
                                                    /*allow_exceptions=*/false);
    // The build dir differs from run to run; the rest must not.
    return absl::StrReplaceAll(commands.dump(), {{options.scratch.string(), "<scratch>"}});
  };
  const std::string plain = discover("plain", false);
  const std::string probed = discover("probed", true);
  const std::string seeded = discover("seeded", true);
  EXPECT_NE(plain.find("SCALE_TWICE"), std::string::npos) << plain;
  EXPECT_EQ(probed, plain);
  EXPECT_EQ(seeded, plain);
  // Identification leaves CMakeFiles/<version>/CompilerId<LANG>/; a seeded build dir has none.
  bool identified = false;
  for (const auto& entry : fs::recursive_directory_iterator(work.path() / "seeded/build")) {
    identified |= entry.path().filename().string().starts_with("CompilerId");
  }
  EXPECT_FALSE(identified) << "the seeded configure ran CMake's compiler identification";
  EXPECT_TRUE(fs::exists(work.path() / "plain/build/CMakeFiles")) << "the unseeded one is the baseline";
}

}  // namespace
}  // namespace hipforge::translate
