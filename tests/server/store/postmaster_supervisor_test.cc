// PostmasterSupervisor's retry and backoff against a fake postmaster; the real one is in embedded_postgres_test.cc.
#include "server/store/postmaster_supervisor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace hipforge::server {
namespace {
using namespace std::chrono_literals;

// Dead until `restarts_failing` restart attempts have failed; the next one brings it back.
class FakePostmaster : public SupervisedPostmaster {
 public:
  bool PostmasterAlive() override { return alive; }
  absl::Status RestartPostmaster() override {
    ++restart_calls;
    if (restart_calls <= restarts_failing) return absl::InternalError("pg_ctl start failed");
    alive = true;
    return absl::OkStatus();
  }
  std::atomic<bool> alive{true};
  std::atomic<int> restart_calls{0};
  int restarts_failing = 0;
};

PostmasterSupervisorOptions Options() {
  PostmasterSupervisorOptions options;
  options.max_attempts = 4;
  options.first_backoff = 100ms;
  options.max_backoff = 250ms;
  return options;
}

struct RecordingSleep {
  std::vector<std::chrono::milliseconds> slept;
  bool stop_after_first = false;
  PostmasterSupervisor::Sleep Get() {
    return [this](std::chrono::milliseconds duration) {
      slept.push_back(duration);
      return !stop_after_first;
    };
  }
};

TEST(PostmasterSupervisorTest, AliveNeedsNothing) {
  FakePostmaster postmaster;
  RecordingSleep sleep;
  EXPECT_EQ(PostmasterSupervisor::CheckOnce(postmaster, Options(), sleep.Get()), SupervisionOutcome::kAlive);
  EXPECT_EQ(postmaster.restart_calls.load(), 0);
  EXPECT_TRUE(sleep.slept.empty());
}

TEST(PostmasterSupervisorTest, DeadIsRestartedAtOnce) {
  FakePostmaster postmaster;
  postmaster.alive = false;
  RecordingSleep sleep;
  EXPECT_EQ(PostmasterSupervisor::CheckOnce(postmaster, Options(), sleep.Get()), SupervisionOutcome::kRestarted);
  EXPECT_EQ(postmaster.restart_calls.load(), 1);
  EXPECT_TRUE(sleep.slept.empty()) << "the first attempt does not wait";
}

TEST(PostmasterSupervisorTest, FailedRestartsBackOffExponentiallyUpToTheCap) {
  FakePostmaster postmaster;
  postmaster.alive = false;
  postmaster.restarts_failing = 3;
  RecordingSleep sleep;
  EXPECT_EQ(PostmasterSupervisor::CheckOnce(postmaster, Options(), sleep.Get()), SupervisionOutcome::kRestarted);
  EXPECT_EQ(postmaster.restart_calls.load(), 4);
  EXPECT_EQ(sleep.slept, (std::vector<std::chrono::milliseconds>{100ms, 200ms, 250ms}));
}

TEST(PostmasterSupervisorTest, GivesUpAfterTheBound) {
  FakePostmaster postmaster;
  postmaster.alive = false;
  postmaster.restarts_failing = 100;
  RecordingSleep sleep;
  EXPECT_EQ(PostmasterSupervisor::CheckOnce(postmaster, Options(), sleep.Get()), SupervisionOutcome::kGaveUp);
  EXPECT_EQ(postmaster.restart_calls.load(), 4);
  EXPECT_EQ(sleep.slept.size(), 3u);
}

TEST(PostmasterSupervisorTest, StoppingDuringBackoffEndsTheRetries) {
  FakePostmaster postmaster;
  postmaster.alive = false;
  postmaster.restarts_failing = 100;
  RecordingSleep sleep;
  sleep.stop_after_first = true;
  EXPECT_EQ(PostmasterSupervisor::CheckOnce(postmaster, Options(), sleep.Get()), SupervisionOutcome::kStopped);
  EXPECT_EQ(postmaster.restart_calls.load(), 1);
}

TEST(PostmasterSupervisorTest, BackoffDoublesFromTheSecondAttempt) {
  PostmasterSupervisorOptions options;
  options.first_backoff = 500ms;
  options.max_backoff = 8000ms;
  EXPECT_EQ(PostmasterSupervisor::BackoffBefore(2, options), 500ms);
  EXPECT_EQ(PostmasterSupervisor::BackoffBefore(3, options), 1000ms);
  EXPECT_EQ(PostmasterSupervisor::BackoffBefore(6, options), 8000ms);
  EXPECT_EQ(PostmasterSupervisor::BackoffBefore(40, options), 8000ms);
}

// The thread: polls, notices a death, restarts; a later death is restarted too; the destructor returns promptly.
TEST(PostmasterSupervisorTest, WatchingThreadRestartsEachDeath) {
  FakePostmaster postmaster;
  PostmasterSupervisorOptions options = Options();
  options.poll_interval = 20ms;
  auto wait_until = [](const std::function<bool()>& done) {
    for (int i = 0; i < 250 && !done(); ++i) std::this_thread::sleep_for(20ms);
    return done();
  };
  const auto started = std::chrono::steady_clock::now();
  {
    PostmasterSupervisor supervisor(postmaster, options);
    postmaster.alive = false;
    ASSERT_TRUE(wait_until([&] { return postmaster.alive.load(); }));
    EXPECT_EQ(postmaster.restart_calls.load(), 1);
    postmaster.alive = false;
    ASSERT_TRUE(wait_until([&] { return postmaster.alive.load(); }));
    EXPECT_EQ(postmaster.restart_calls.load(), 2);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
}

}  // namespace
}  // namespace hipforge::server
