#include "worker/validate/test_runner.h"

#include <gtest/gtest.h>

#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

TEST(TestRunnerTest, RunsManifestCommandsWithTimeoutsAndSerializedRerun) {
  testing::ScratchDir dir("tests");
  auto manifest = ParseManifest(R"(
tests:
  commands:
    - name: ok
      run: echo visible=$ROCR_VISIBLE_DEVICES
    - name: fails
      run: echo serialize=${AMD_SERIALIZE_KERNEL:-none}; exit 3
    - name: hangs
      run: sleep 30
      timeout_s: 1
    - name: own-timeout
      run: echo serialize=${AMD_SERIALIZE_KERNEL:-none}; exit 124
)");
  ASSERT_TRUE(manifest.ok()) << manifest.status();
  BoostProcessLauncher launcher;
  TestRunner runner(launcher);
  ExecutionContext context{.environment = {{"PATH", "/usr/bin:/bin"}, {"ROCR_VISIBLE_DEVICES", "2"}}};
  auto results = runner.Run(
      {.arch = "gfx90a", .source_dir = dir.path(), .build_dir = dir.path(), .manifest = &*manifest}, context);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].status, TestStatus::kPassed);
  EXPECT_EQ(results[0].output_excerpt, "visible=2\n");
  EXPECT_EQ(results[1].status, TestStatus::kFailed);
  EXPECT_NE(results[1].output_excerpt.find("serialize=none"), std::string::npos);
  EXPECT_NE(results[1].output_excerpt.find("re-run with AMD_SERIALIZE_KERNEL=3: exit 3"), std::string::npos);
  EXPECT_NE(results[1].output_excerpt.find("serialize=3"), std::string::npos);
  EXPECT_EQ(results[2].status, TestStatus::kTimedOut);
  EXPECT_LT(results[2].duration_ms, 10000);
  // Out of time, ours or the command's own `timeout` (exit 124): no serialized re-run, which would take as long again.
  EXPECT_NE(results[2].output_excerpt.find("not re-run with AMD_SERIALIZE_KERNEL=3: it ran out of time"),
            std::string::npos);
  EXPECT_EQ(results[3].status, TestStatus::kFailed);
  EXPECT_EQ(results[3].output_excerpt.find("serialize=3"), std::string::npos);
  EXPECT_NE(results[3].output_excerpt.find("not re-run"), std::string::npos);

  // Our JUnit output reads back the same.
  auto parsed = ParseJUnitXml(ToJUnitXml("job", results), "gfx90a");
  ASSERT_EQ(parsed.size(), 4u);
  EXPECT_EQ(parsed[0].status, TestStatus::kPassed);
  EXPECT_EQ(parsed[1].status, TestStatus::kFailed);
  EXPECT_EQ(parsed[2].status, TestStatus::kTimedOut);
}

// Configures dir/src (a CMake project whose tests are `add_tests`) into dir/build; empty on success.
std::string ConfigureCTestProject(ProcessLauncher& launcher, const std::filesystem::path& dir,
                                  const std::string& add_tests) {
  testing::WriteFile(dir / "src/CMakeLists.txt",
                     "cmake_minimum_required(VERSION 3.21)\nproject(t NONE)\nenable_testing()\n" + add_tests);
  auto configured = launcher.Run({.argv = {"cmake", "-S", (dir / "src").string(), "-B", (dir / "build").string()}});
  if (!configured.ok()) return std::string(configured.status().message());
  return configured->exit_code == 0 ? "" : configured->standard_error;
}

TEST(TestRunnerTest, RealCTestJUnit) {
  testing::ScratchDir dir("ctest");
  BoostProcessLauncher launcher;
  ASSERT_EQ(ConfigureCTestProject(launcher, dir.path(),
                                  "add_test(NAME good COMMAND sh -c \"echo fine\")\n"
                                  "add_test(NAME bad COMMAND sh -c \"echo broken; exit 1\")\n"),
            "");
  TestRunner runner(launcher);
  ExecutionContext context{.environment = {{"PATH", "/usr/bin:/bin"}}};
  auto results = runner.Run(
      {.arch = "gfx90a", .source_dir = dir.path() / "src", .build_dir = dir.path() / "build", .use_ctest = true},
      context);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].name, "good");
  EXPECT_EQ(results[0].status, TestStatus::kPassed);
  EXPECT_EQ(results[1].name, "bad");
  EXPECT_EQ(results[1].status, TestStatus::kFailed);
  EXPECT_NE(results[1].output_excerpt.find("broken"), std::string::npos);
}

TEST(TestRunnerTest, ListsCTestTestsWithoutRunningThem) {
  testing::ScratchDir dir("ctest-list");
  BoostProcessLauncher launcher;
  ASSERT_EQ(ConfigureCTestProject(launcher, dir.path(),
                                  "add_test(NAME first COMMAND sh -c \"touch ran\")\n"
                                  "add_test(NAME \"second one\" COMMAND sh -c \"touch ran\")\n"),
            "");
  const std::filesystem::path build = dir.path() / "build";
  TestRunner runner(launcher);
  ExecutionContext context{.environment = {{"PATH", "/usr/bin:/bin"}}};
  auto names = runner.ListCTest({.arch = "gfx90a", .build_dir = build}, context);
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_EQ(*names, (std::vector<std::string>{"first", "second one"}));
  EXPECT_FALSE(std::filesystem::exists(build / "ran"));

  // A build dir that is not there is an error (ctest exits 1), not an empty list.
  auto none = runner.ListCTest({.arch = "gfx90a", .build_dir = dir.path() / "missing"}, context);
  EXPECT_FALSE(none.ok());
}

TEST(TestRunnerTest, ParsesCTestJsonAndDecidesWhenCTestRuns) {
  auto names = ParseCTestTestList(R"({"kind":"ctestInfo","version":{"major":1,"minor":0},
    "tests":[{"name":"a","command":["x"]},{"name":"b"},{"command":["nameless"]}]})");
  ASSERT_TRUE(names.ok()) << names.status();
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(ParseCTestTestList("Test project /x\n  Test #1: a\n").ok());
  EXPECT_FALSE(ParseCTestTestList(R"({"kind":"ctestInfo"})").ok());

  Manifest with_commands;
  with_commands.tests.commands.push_back({.name = "t", .run = "true"});
  EXPECT_TRUE(RunsCTest(nullptr, true));
  EXPECT_FALSE(RunsCTest(nullptr, false));
  EXPECT_FALSE(RunsCTest(&with_commands, true));
  with_commands.tests.ctest = true;
  EXPECT_TRUE(RunsCTest(&with_commands, true));
  Manifest off;
  off.tests.ctest = false;
  EXPECT_FALSE(RunsCTest(&off, true));
}

}  // namespace
}  // namespace hipforge::validate
