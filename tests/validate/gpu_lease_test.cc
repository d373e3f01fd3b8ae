#include "worker/validate/gpu_lease.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

using namespace std::chrono_literals;

std::vector<GpuDevice> TwoGpus() {
  return {GpuDevice{.hip_index = 0, .key = "0000:c1:00.0", .arch = "gfx90a"},
          GpuDevice{.hip_index = 1, .key = "0000:c2:00.0", .arch = "gfx90a"}};
}

TEST(GpuLeaseTest, ManyThreadsNeverShareAGpu) {
  testing::ScratchDir locks("locks");
  FileLockLeaseManager manager(TwoGpus(), locks.path());
  std::mutex mutex;
  std::map<std::string, int> holders;
  std::atomic<int> violations = 0, leases = 0, peak = 0, concurrent = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        auto lease = manager.Acquire("job-" + std::to_string(t), {}, 10s);
        ASSERT_TRUE(lease.ok()) << lease.status();
        {
          std::lock_guard lock(mutex);
          if (++holders[(*lease)->device().key] != 1) ++violations;
        }
        const int now = ++concurrent;
        int expected = peak.load();
        while (now > expected && !peak.compare_exchange_weak(expected, now)) {
        }
        std::this_thread::sleep_for(2ms);
        --concurrent;
        {
          std::lock_guard lock(mutex);
          --holders[(*lease)->device().key];
        }
        ++leases;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(violations.load(), 0);
  EXPECT_EQ(leases.load(), 80);
  EXPECT_EQ(peak.load(), 2);  // both GPUs were in use at once, never more
}

// Waiters get the GPU in the order they came: a job is not starved by later ones (the H200 pool's kernel-set job
// waited 7 minutes behind later jobs before the queue).
TEST(GpuLeaseTest, WaitersGetTheGpuInArrivalOrder) {
  testing::ScratchDir locks("locks");
  FileLockLeaseManager manager({GpuDevice{.hip_index = 0, .key = "gpu-a", .arch = "gfx942"}}, locks.path());
  auto holder = manager.Acquire("first", {}, 1s);
  ASSERT_TRUE(holder.ok());
  std::mutex mutex;
  std::vector<int> order;
  std::vector<std::thread> waiters;
  for (int i = 0; i < 5; ++i) {
    waiters.emplace_back([&, i] {
      auto lease = manager.Acquire("job-" + std::to_string(i), {}, 10s);
      ASSERT_TRUE(lease.ok()) << lease.status();
      {
        std::lock_guard lock(mutex);
        order.push_back(i);
      }
      std::this_thread::sleep_for(5ms);
    });
    std::this_thread::sleep_for(20ms);  // arrival order
  }
  holder->reset();
  for (auto& waiter : waiters) waiter.join();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
  // The queue is empty again: no ticket is left behind.
  EXPECT_TRUE(std::filesystem::is_empty(locks.path() / "queue"));
}

// A ticket whose waiter died (a crashed worker process) does not hold the queue up.
TEST(GpuLeaseTest, AStaleTicketDoesNotBlockTheQueue) {
  testing::ScratchDir locks("locks");
  std::filesystem::create_directories(locks.path() / "queue");
  testing::WriteFile(locks.path() / "queue" / "00000000000000000001-0000000001-0000000000", "");
  FileLockLeaseManager manager({GpuDevice{.hip_index = 0, .key = "gpu-a", .arch = "gfx942"}}, locks.path());
  auto lease = manager.Acquire("job", {}, 2s);
  ASSERT_TRUE(lease.ok()) << lease.status();
  EXPECT_TRUE(std::filesystem::is_empty(locks.path() / "queue"));
}

TEST(GpuLeaseTest, WaitsThenTimesOutAndFiltersByArch) {
  testing::ScratchDir locks("locks");
  FileLockLeaseManager manager({GpuDevice{.hip_index = 0, .key = "gpu-a", .arch = "gfx942"}}, locks.path());
  auto none = manager.Acquire("job", {"gfx90a"}, 10ms);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  auto first = manager.Acquire("job1", {"gfx942"}, 10ms);
  ASSERT_TRUE(first.ok());
  auto second = manager.Acquire("job2", {}, 50ms);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kDeadlineExceeded);
  // Released while a third job waits: the waiter gets it.
  std::thread releaser([&] {
    std::this_thread::sleep_for(30ms);
    first->reset();
  });
  auto third = manager.Acquire("job3", {}, 5s);
  releaser.join();
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_EQ((*third)->device().key, "gpu-a");
}

// Two worker processes on one host: the lock file (flock) keeps the second off the held GPU.
TEST(GpuLeaseTest, SecondProcessCannotTakeAHeldGpu) {
  testing::ScratchDir locks("locks");
  int to_parent[2], to_child[2];
  ASSERT_EQ(pipe(to_parent), 0);
  ASSERT_EQ(pipe(to_child), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The other worker: leases the first GPU, tells the parent, holds it until told to let go.
    FileLockLeaseManager other(TwoGpus(), locks.path());
    auto lease = other.Acquire("child-job", {}, 1s);
    char key = lease.ok() && (*lease)->device().key == "0000:c1:00.0" ? '1' : 'x';
    [[maybe_unused]] auto w = write(to_parent[1], &key, 1);
    char go;
    [[maybe_unused]] auto r = read(to_child[0], &go, 1);
    lease->reset();
    _exit(0);
  }
  char key = 0;
  ASSERT_EQ(read(to_parent[0], &key, 1), 1);
  ASSERT_EQ(key, '1');

  FileLockLeaseManager manager(TwoGpus(), locks.path());
  auto mine = manager.Acquire("parent-job", {}, 100ms);
  ASSERT_TRUE(mine.ok());
  EXPECT_EQ((*mine)->device().key, "0000:c2:00.0");  // not the child's
  auto none = manager.Acquire("parent-job-2", {}, 200ms);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kDeadlineExceeded);

  char go = 'g';
  ASSERT_EQ(write(to_child[1], &go, 1), 1);
  int status = 0;
  waitpid(child, &status, 0);
  auto after = manager.Acquire("parent-job-3", {}, 2s);  // seen by polling the lock file
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ((*after)->device().key, "0000:c1:00.0");
}

// A pool with slots: that many jobs hold one GPU at once, never more, and separate manager instances (the server's
// local workers, other processes) share the count through the slot lock files.
TEST(GpuLeaseTest, SlotsLetThatManyJobsShareOneGpu) {
  testing::ScratchDir locks("locks");
  const std::vector<GpuDevice> one{GpuDevice{.hip_index = 0, .key = "gpu-a", .arch = "sm_90"}};
  FileLockLeaseManager first(one, locks.path(), 3), second(one, locks.path(), 3);
  auto a = first.Acquire("job-a", {}, 100ms);
  auto b = second.Acquire("job-b", {}, 100ms);
  auto c = first.Acquire("job-c", {}, 100ms);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ((*a)->device().key, "gpu-a");
  EXPECT_EQ(std::set<int>({(*a)->slot(), (*b)->slot(), (*c)->slot()}), (std::set<int>{0, 1, 2}));
  auto d = second.Acquire("job-d", {}, 50ms);
  EXPECT_EQ(d.status().code(), absl::StatusCode::kDeadlineExceeded);
  const int freed = (*b)->slot();
  b->reset();  // released through the other instance: seen by polling its lock file
  auto e = first.Acquire("job-e", {}, 2s);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ((*e)->slot(), freed);
  // One slot (the default) is the exclusive lease, with the lock file name it always had.
  FileLockLeaseManager exclusive({GpuDevice{.hip_index = 0, .key = "gpu-b", .arch = "sm_90"}}, locks.path());
  auto only = exclusive.Acquire("job-f", {}, 100ms);
  ASSERT_TRUE(only.ok());
  EXPECT_TRUE(std::filesystem::exists(locks.path() / "gpu-b.lock"));
  EXPECT_EQ(exclusive.Acquire("job-g", {}, 50ms).status().code(), absl::StatusCode::kDeadlineExceeded);
}

}  // namespace
}  // namespace hipforge::validate
