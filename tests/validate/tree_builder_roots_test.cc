// Build roots (issue 29, build discovery): a tree whose build files sit in sub-directories, as most
// multi-program repositories have them, is built from each top-most one ("no CMakeLists.txt or Makefile in
// the tree" before); a root that fails does not stop the others and is named; hipforge.yaml can pick.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/validate/test_support.h"
#include "worker/validate/test_runner.h"
#include "worker/validate/tree_builder.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::vector<std::string> Dirs(const std::vector<BuildRoot>& roots) {
  std::vector<std::string> dirs;
  for (const BuildRoot& root : roots) dirs.push_back(root.dir.generic_string());
  return dirs;
}

TEST(BuildRootsTest, TopMostBuildFilesBelowATreeWithoutOneAreItsRoots) {
  testing::ScratchDir dir("roots");
  const fs::path tree = dir.path();
  testing::WriteFile(tree / "programs/saxpy/Makefile", "all:\n");
  testing::WriteFile(tree / "programs/saxpy/lib/Makefile", "all:\n");  // built by saxpy's own Makefile
  testing::WriteFile(tree / "programs/reduce/CMakeLists.txt", "project(r)\n");
  testing::WriteFile(tree / "samples/deep/scan/makefile", "all:\n");
  testing::WriteFile(tree / ".github/Makefile", "all:\n");  // hidden: not a program
  testing::WriteFile(tree / "README.md", "# many programs\n");
  absl::StatusOr<std::vector<BuildRoot>> roots = FindBuildRoots(tree, nullptr);
  ASSERT_TRUE(roots.ok()) << roots.status();
  EXPECT_EQ(Dirs(*roots), (std::vector<std::string>{"programs/reduce", "programs/saxpy", "samples/deep/scan"}));
  EXPECT_EQ(roots->front().system, BuildSystem::kCMake);
  EXPECT_EQ(roots->back().system, BuildSystem::kMake);

  // A CMakeLists.txt without project() is a piece of a bigger build: beside a Makefile, make builds it.
  testing::WriteFile(tree / "programs/saxpy/CMakeLists.txt", "add_hecbench_benchmark(NAME saxpy MODEL cuda)\n");
  EXPECT_EQ(FindBuildRoots(tree, nullptr)->back().system, BuildSystem::kMake);
  EXPECT_EQ(TreeBuilder::DetectBuildSystem(tree / "programs/saxpy", nullptr), BuildSystem::kMake);
  testing::WriteFile(tree / "programs/saxpy/CMakeLists.txt", "cmake_minimum_required(VERSION 3.20)\nProject(s)\n");
  EXPECT_EQ(TreeBuilder::DetectBuildSystem(tree / "programs/saxpy", nullptr), BuildSystem::kCMake);

  // A build file at the top is the one root, whatever is below.
  testing::WriteFile(tree / "CMakeLists.txt", "project(all)\n");
  EXPECT_EQ(Dirs(*FindBuildRoots(tree, nullptr)), (std::vector<std::string>{"."}));

  // hipforge.yaml picks; a pick outside the tree or without a build file is an error naming it.
  Manifest manifest;
  manifest.build.roots = {"programs/saxpy"};
  EXPECT_EQ(Dirs(*FindBuildRoots(tree, &manifest)), (std::vector<std::string>{"programs/saxpy"}));
  manifest.build.roots = {"../elsewhere"};
  EXPECT_THAT(std::string(FindBuildRoots(tree, &manifest).status().message()), HasSubstr("not inside the tree"));
  manifest.build.roots = {"README.md"};
  EXPECT_THAT(std::string(FindBuildRoots(tree, &manifest).status().message()), HasSubstr("no CMakeLists.txt"));
}

TEST(BuildRootsTest, EachRootIsBuiltAFailingOneIsNamedAndTheOthersStillBuild) {
  if (FindProgram("make").empty()) GTEST_SKIP() << "no make";
  testing::ScratchDir dir("roots-build");
  const fs::path tree = dir.path() / "src";
  testing::WriteFile(tree / "a/Makefile", "all:\n\ttouch built-a\n");
  testing::WriteFile(tree / "b/Makefile", "all:\n\t@echo 'kernel.cpp:3:1: error: no member named x' >&2; exit 1\n");
  testing::WriteFile(tree / "c/Makefile", "all:\n\ttouch built-c\n");
  BoostProcessLauncher launcher;
  TreeBuilder builder(launcher, BuildToolchain{.hipcc = "/bin/true", .parallel_jobs = 1});
  ExecutionContext context;
  context.environment["PATH"] = "/usr/bin:/bin";  // what the job environment gives every build
  BuildOutcome outcome =
      builder.Build({.source_dir = tree, .build_dir = dir.path() / "build", .arch = "gfx942"}, context);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.roots, 3u);
  EXPECT_THAT(outcome.failure, HasSubstr("1 of 3 build roots failed (b: make exited 2)")) << outcome.log;
  EXPECT_TRUE(fs::exists(tree / "a/built-a"));
  EXPECT_TRUE(fs::exists(tree / "c/built-c")) << "a failing root stopped the roots after it";
  ASSERT_EQ(outcome.errors.size(), 1u);
  EXPECT_EQ(fs::path(outcome.errors[0].path), tree / "b/kernel.cpp") << "the error's path is rooted where it built";
  EXPECT_THAT(outcome.log, HasSubstr("== build root b =="));

  // No build file anywhere: the message says where to look and what hipforge.yaml can say.
  testing::ScratchDir empty("roots-none");
  testing::WriteFile(empty.path() / "src/kernel.hip", "int main() {}\n");
  BuildOutcome none = builder.Build(
      {.source_dir = empty.path() / "src", .build_dir = empty.path() / "build", .arch = "gfx942"}, context);
  EXPECT_FALSE(none.ok);
  EXPECT_THAT(none.failure, HasSubstr("anywhere in the tree"));
  EXPECT_THAT(none.failure, HasSubstr("build.roots"));
}

// The GPU host's CMake lives in a Python virtual environment on the worker's PATH only; in the sandbox a bare
// `cmake` was looked up in the build's PATH and ggml's build failed "cannot run cmake" in 33 ms.
TEST(TreeBuilderTest, TheWorkersCMakeRunsInTheSandboxWhereTheBuildsPathLacksIt) {
  if (!fs::exists(DefaultBwrap())) GTEST_SKIP() << "no bubblewrap";
  BoostProcessLauncher launcher;
  if (!ProbeSandbox(launcher, DefaultBwrap()).ok()) GTEST_SKIP() << "bubblewrap cannot run here";
  testing::ScratchDir dir("worker-cmake");
  const fs::path tools = dir.path() / "venv/bin";
  testing::WriteFile(tools / "cmake", "#!/bin/sh\necho \"venv cmake $*\" >> \"$(dirname \"$0\")/ran\"\n");
  fs::permissions(tools / "cmake", fs::perms::owner_all);
  testing::WriteFile(dir.path() / "src/CMakeLists.txt", "project(p)\n");
  const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", (tools.string() + ":" + saved).c_str(), 1);
  TreeBuilder builder(launcher, BuildToolchain{.hipcc = "/bin/true", .parallel_jobs = 1});
  setenv("PATH", saved.c_str(), 1);
  ExecutionContext context;
  context.environment["PATH"] = "/usr/local/bin:/usr/bin:/bin";  // the job environment's
  context.sandbox = SandboxSpec{.work_dir = dir.path()};
  BuildOutcome outcome =
      builder.Build({.source_dir = dir.path() / "src", .build_dir = dir.path() / "build", .arch = "gfx942"}, context);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_THAT(testing::ReadFile(tools / "ran"), HasSubstr("venv cmake --build"));
}

}  // namespace
}  // namespace hipforge::validate

namespace hipforge::validate {
namespace {

TEST(DiscoveredTestsTest, AMakefilesRunTargetIsATestAndItsFailLineFailsIt) {
  // HeCBench-style programs: `make run` runs the program, which prints PASS or FAIL and exits 0 either way.
  testing::ScratchDir dir("discovered");
  const fs::path tree = dir.path() / "src";
  testing::WriteFile(tree / "good/Makefile", "all:\n\ttrue\nrun: all\n\t@echo 'max error 0.0'; echo PASS\n");
  testing::WriteFile(tree / "bad/Makefile", "all:\n\ttrue\nrun: all\n\t@echo 'max error 3.5'; echo FAIL\n");
  testing::WriteFile(tree / "tested/Makefile", "all:\n\ttrue\ntest:\n\t@exit 3\nrun:\n\t@true\n");
  testing::WriteFile(tree / "none/Makefile", "all:\n\ttrue\nRUN := yes\n");
  absl::StatusOr<std::vector<BuildRoot>> roots = FindBuildRoots(tree, nullptr);
  ASSERT_TRUE(roots.ok());
  std::vector<TestCommand> tests = DiscoveredTests(tree, *roots, "sm_90", "/opt/hipcc");
  ASSERT_EQ(tests.size(), 3u);
  EXPECT_EQ(tests[0].name, "bad: make run");
  EXPECT_EQ(tests[1].name, "good: make run");
  EXPECT_EQ(tests[2].name, "tested: make test") << "test is preferred to run";
  EXPECT_TRUE(tests[0].discovered);
  EXPECT_THAT(tests[0].run, HasSubstr("ARCH=sm_90"));

  BoostProcessLauncher launcher;
  TestRunner runner(launcher);
  ExecutionContext context;
  context.environment["PATH"] = "/usr/bin:/bin";
  std::vector<TestResult> results = runner.Run(
      {.arch = "sm_90", .source_dir = tree, .build_dir = tree, .rerun_failures_serialized = false, .discovered = tests},
      context);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].status, TestStatus::kFailed) << "exit 0 but FAIL printed";
  EXPECT_THAT(results[0].output_excerpt, HasSubstr("its output says FAIL"));
  EXPECT_EQ(results[1].status, TestStatus::kPassed) << results[1].output_excerpt;
  EXPECT_EQ(results[2].status, TestStatus::kFailed);

  EXPECT_TRUE(OutputSaysFail("n = 4096\nFAIL\n"));
  EXPECT_TRUE(OutputSaysFail("FAILED: mismatch at 17"));
  EXPECT_FALSE(OutputSaysFail("PASS\n0 FAILURES\nno FAILs\n"));
  // What btree-cuda printed on the H200 before exiting 0.
  EXPECT_TRUE(
      OutputSaysFail("CUDA error at allocator/pool_allocator.cuh 42: an illegal memory access was encountered\n"));
}

}  // namespace
}  // namespace hipforge::validate
