// The worker's answer to a server that fails it while a task runs (worker/task_state.h, worker.cc's Fail): a FailTask
// the server never takes leaves the lease to run out, so the task is retried, not lost; heartbeats that fail for a
// while keep the task going until the server answers again, and stop it if that answer is a lost lease; progress
// is best effort, but progress refused on a lease the worker no longer holds stops the work at once.
#include <thread>

#include <gmock/gmock.h>

#include "tests/worker/stages/stage_test_support.h"
#include "tests/worker/until_abandoned_runner.h"

namespace hipforge::worker::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

class ServerFaultTest : public WorkerStageTest {
 protected:
  // Waits until the fake has answered `count` more heartbeats than `since`.
  bool WaitForHeartbeats(size_t since, size_t count) {
    return fake().WaitFor([&](const FakeWorkerService& f) { return f.heartbeats().size() >= since + count; }, 5s);
  }
};

TEST_F(ServerFaultTest, AFailTaskTheServerNeverTakesLeavesTheLeaseToRunOutAndTheTaskIsRetried) {
  std::atomic<int> attempts{0};
  ScriptedRunner runner([&](const TaskContext&) -> absl::StatusOr<TaskOutput> {
    if (++attempts == 1) return absl::InternalError("disk full");
    return TaskOutput{.summary = "second attempt"};
  });
  auto worker = MakeWorker(runner);
  const std::string task_id = fake().QueueTask(TranslateTask());
  fake().SetFailTaskStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server restarting"));
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_FALSE(outcome.ok()) << "a FailTask the server never took ended as " << TaskOutcomeName(*outcome);
  EXPECT_EQ(outcome.status().code(), absl::StatusCode::kUnavailable);  // Run backs off and registers again
  const auto failures = fake().failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_THAT(failures[0].error(), HasSubstr("disk full"));
  EXPECT_FALSE(fake().LeaseOf(task_id).empty()) << "the lease is the server's to expire";
  EXPECT_TRUE(ScratchIsEmpty());
  EXPECT_TRUE(fake().completions().empty());
  // Nothing keeps the lease alive any more: it runs out (the fake's lease is 300 ms, a heartbeat every 100 ms).
  const size_t heartbeats = fake().heartbeats().size();
  std::this_thread::sleep_for(350ms);
  EXPECT_EQ(fake().heartbeats().size(), heartbeats) << "the failed attempt still heartbeats its lease";

  // The rescuer queues the task again; the worker goes on and takes the next attempt.
  fake().SetFailTaskStatus(grpc::Status::OK);
  fake().ExpireLease(task_id);
  outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  ASSERT_EQ(fake().completions().size(), 1u);
  EXPECT_EQ(fake().completions()[0].header.lease().task_id(), task_id);
  EXPECT_TRUE(fake().completions()[0].accepted);
  EXPECT_EQ(attempts.load(), 2);
}

TEST_F(ServerFaultTest, HeartbeatsThatFailForAWhileKeepTheTaskGoingWhileTheLeaseIsHeld) {
  std::atomic<bool> outage_seen{false};
  ScriptedRunner runner([&](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    size_t since = fake().heartbeats().size();
    fake().SetHeartbeatAnswer(HeartbeatAnswer::kUnavailable);
    outage_seen = WaitForHeartbeats(since, 3);  // three lease thirds without an answer
    fake().SetHeartbeatAnswer(HeartbeatAnswer::kExtend);
    since = fake().heartbeats().size();
    if (!outage_seen || !WaitForHeartbeats(since, 2)) return absl::DeadlineExceededError("the heartbeats stopped");
    if (context.abandon.load()) return absl::CancelledError("told to abandon during the outage");
    return TaskOutput{.summary = "worked through the outage"};
  });
  auto worker = MakeWorker(runner);
  const std::string task_id = fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted) << TaskOutcomeName(*outcome);
  EXPECT_TRUE(outage_seen.load());
  ASSERT_EQ(fake().completions().size(), 1u);
  EXPECT_TRUE(fake().completions()[0].accepted);
  EXPECT_TRUE(fake().failures().empty()) << fake().failures()[0].error();
  for (const v1::HeartbeatRequest& heartbeat : fake().heartbeats()) {
    EXPECT_EQ(heartbeat.lease().token(), fake().completions()[0].header.lease().token());
  }
}

TEST_F(ServerFaultTest, HeartbeatsThatFailForAWhileAndComeBackWithTheLeaseLostStopTheTask) {
  UntilAbandonedRunner runner;
  runner.answer = TaskOutput{.summary = "finished after all"};  // must be dropped
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = absl::UnknownError("RunOnce did not return");
  std::thread run([&] { outcome = worker->RunOnce(); });
  for (int i = 0; i < 500 && !runner.started; ++i) std::this_thread::sleep_for(10ms);
  const size_t since = fake().heartbeats().size();
  fake().SetHeartbeatAnswer(HeartbeatAnswer::kUnavailable);
  EXPECT_TRUE(WaitForHeartbeats(since, 3));
  EXPECT_FALSE(runner.saw_abandon.load()) << "a heartbeat that failed was taken for a lost lease";
  fake().SetHeartbeatAnswer(HeartbeatAnswer::kLeaseLost);
  run.join();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kLeaseLost) << TaskOutcomeName(*outcome);
  EXPECT_TRUE(runner.saw_abandon.load());
  EXPECT_TRUE(fake().completions().empty()) << "a result was reported on a lease that is gone";
  EXPECT_TRUE(fake().failures().empty());
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(ServerFaultTest, ProgressTheServerFailsToTakeDoesNotFailTheTask) {
  ScriptedRunner runner([](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    context.progress.FileDone("src/scale.cu", 1, 1, "translated");
    context.progress.Log("info", "patch written");
    return TaskOutput{.summary = "1 file"};
  });
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  fake().SetProgressStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "event store busy"));
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted) << TaskOutcomeName(*outcome);
  EXPECT_GE(fake().progress().size(), 1u) << "no progress was even tried";
  ASSERT_EQ(fake().completions().size(), 1u);
  EXPECT_TRUE(fake().completions()[0].accepted);
  EXPECT_TRUE(fake().failures().empty());
}

TEST_F(ServerFaultTest, ProgressRefusedOnALostLeaseStopsTheWorkBeforeTheNextHeartbeat) {
  std::atomic<bool> saw_abandon{false};
  ScriptedRunner runner([&](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    fake().ExpireLease(context.task_id);            // rescued on the server; no heartbeat has told the worker yet
    context.progress.Log("info", "still working");  // a log line is sent at once, and refused
    for (int i = 0; i < 200 && !context.abandon.load(); ++i) std::this_thread::sleep_for(10ms);
    saw_abandon = context.abandon.load();
    return TaskOutput{.summary = "finished after all"};  // must be dropped
  });
  auto worker = MakeWorker(runner);
  ScriptedTask task = TranslateTask();
  task.lease_duration = 30s;  // a heartbeat every 10 s: none while this test runs
  fake().QueueTask(task);
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kLeaseLost) << TaskOutcomeName(*outcome);
  EXPECT_TRUE(saw_abandon.load()) << "the runner worked on after its progress was refused";
  EXPECT_TRUE(fake().heartbeats().empty()) << "a heartbeat, not the refused progress, stopped the task";
  EXPECT_TRUE(fake().completions().empty()) << "a result was uploaded for a lease that is gone";
  EXPECT_TRUE(fake().failures().empty());
  EXPECT_TRUE(ScratchIsEmpty());
}

}  // namespace
}  // namespace hipforge::worker::testing
