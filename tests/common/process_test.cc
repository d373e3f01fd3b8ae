#include "common/process.h"

#include <gtest/gtest.h>

#include <atomic>
#include <limits>
#include <thread>
#include <vector>

namespace hipforge {
namespace {

TEST(BoostProcessLauncherTest, CapturesOutputAndExitCode) {
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 3);
  EXPECT_EQ(result->standard_output, "out\n");
  EXPECT_EQ(result->standard_error, "err\n");
  EXPECT_FALSE(result->timed_out);
}

TEST(BoostProcessLauncherTest, ReplacedEnvironmentHidesParentVariables) {
  setenv("HIPFORGE_PARENT_ONLY", "1", 1);
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"/bin/sh", "-c", "echo \"[$HIPFORGE_PARENT_ONLY][$CHILD]\""},
                              .environment = {{"CHILD", "yes"}},
                              .replace_environment = true});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, "[][yes]\n");
}

TEST(BoostProcessLauncherTest, TimeoutKillsTheWholeGroup) {
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .timeout = std::chrono::milliseconds(300)});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->timed_out);
  EXPECT_EQ(result->exit_code, -1);
  EXPECT_LT(result->wall_time, std::chrono::seconds(10));
}

TEST(BoostProcessLauncherTest, StdinAndTruncation) {
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"cat"}, .standard_input = std::string(1000, 'a'), .max_output_bytes = 10});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, std::string(10, 'a'));
  EXPECT_TRUE(result->output_truncated);
}

// A stream over the cap keeps its head and its tail: ggml's build through the HIP-on-NVIDIA layer wrote more than
// 16 MiB of nvcc warnings, and the failing units' errors and make's summary, at the end, were dropped.
TEST(BoostProcessLauncherTest, OverTheCapTheHeadAndTheTailAreKept) {
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"sh", "-c",
                                       "echo first line; head -c 100000 /dev/zero | tr '\\0' x; "
                                       "echo; echo 'main.cu(12): error: the last word' >&1"},
                              .max_output_bytes = 4096});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->output_truncated);
  EXPECT_LE(result->standard_output.size(), 4096u);
  EXPECT_EQ(result->standard_output.rfind("first line\n", 0), 0u);
  EXPECT_NE(result->standard_output.find("bytes of output dropped here]"), std::string::npos);
  EXPECT_TRUE(result->standard_output.ends_with("main.cu(12): error: the last word\n")) << result->standard_output;
}

// The cap bounds what is kept; it is not a buffer size. A cap beyond std::string's max_size threw length_error when
// the reader allocated the whole cap up front (and a 256 MiB cap zero-filled 256 MiB per stream for a short diff).
TEST(BoostProcessLauncherTest, OutputCapIsNotPreallocated) {
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"printf", "patch"}, .max_output_bytes = std::numeric_limits<size_t>::max() / 2});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, "patch");
  EXPECT_FALSE(result->output_truncated);
}

// Children that exit at once, from several threads, under the default ten-minute timeout: each run must return
// when its child exits. (Boost 1.74's wait_for missed an early SIGCHLD and slept out the whole timeout.)
TEST(BoostProcessLauncherTest, FastChildrenFromManyThreadsReturnWhenTheyExit) {
  BoostProcessLauncher launcher;
  std::atomic<int> exited_zero{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto result = launcher.Run({.argv = {"true"}});
        if (result.ok() && !result->timed_out && result->exit_code == 0) ++exited_zero;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(exited_zero.load(), 100);
}

TEST(BoostProcessLauncherTest, CancelFlagKillsTheRunningGroup) {
  BoostProcessLauncher launcher;
  std::atomic<bool> cancelled{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancelled = true;
  });
  auto result = launcher.Run({.argv = {"sh", "-c", "echo started; sleep 30 & sleep 30"}, .cancelled = &cancelled});
  canceller.join();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->cancelled);
  EXPECT_FALSE(result->timed_out);
  EXPECT_EQ(result->exit_code, -1);
  EXPECT_EQ(result->standard_output, "started\n");
}

TEST(BoostProcessLauncherTest, MissingProgramIsNotFound) {
  BoostProcessLauncher launcher;
  EXPECT_EQ(launcher.Run({.argv = {"hipforge-no-such-program"}}).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace hipforge
