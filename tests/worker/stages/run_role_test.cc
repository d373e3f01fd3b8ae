// The RunRole stage (worker/stages/run_role.cc): the role's runner runs on the task with progress forwarded and
// the lease kept by heartbeats; a cancelled job, a lost lease or a worker stopping (the task given back) end the
// task with nothing reported, whatever the runner returns; a runner error fails the attempt, for good when a
// retry would reproduce it (worker/run_guarded.h).
#include <new>
#include <stdexcept>
#include <thread>

#include <gmock/gmock.h>

#include "tests/worker/stages/stage_test_support.h"
#include "tests/worker/until_abandoned_runner.h"

namespace hipforge::worker::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

class RunRoleTest : public WorkerStageTest {
 protected:
  // RunOnce, with heartbeats answered `answer` from the moment the runner runs (not during the download).
  absl::StatusOr<TaskOutcome> RunOnceAnsweringOnceRunning(Worker& worker, UntilAbandonedRunner& runner,
                                                          HeartbeatAnswer answer) {
    runner.answer = TaskOutput{.summary = "finished after all"};  // the stage must drop it
    absl::StatusOr<TaskOutcome> outcome = absl::UnknownError("RunOnce did not return");
    std::thread run([&] { outcome = worker.RunOnce(); });
    for (int i = 0; i < 500 && !runner.started; ++i) std::this_thread::sleep_for(10ms);
    fake().SetHeartbeatAnswer(answer);
    run.join();
    return outcome;
  }
};

TEST_F(RunRoleTest, TheRunnerGetsItsTaskAndItsProgressReachesTheServerUnderTheLease) {
  ScriptedRunner runner([](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    context.progress.FileDone("src/scale.cu", 1, 2, "translated");
    context.progress.FileDone("CMakeLists.txt", 2, 2, "rewritten");
    context.progress.Step("translate", "patch", "ok", "");
    return TaskOutput{.summary = "2 files"};
  });
  auto worker = MakeWorker({{v1::TASK_ROLE_VALIDATE, &runner}}, Options());
  ScriptedTask task = TranslateTask();
  task.role = v1::TASK_ROLE_VALIDATE;
  task.original.archive = SmallRepoArchive();
  task.managed_memory_found = true;
  const std::string task_id = fake().QueueTask(task);
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  const SeenContext seen = runner.seen();
  EXPECT_EQ(seen.task_id, task_id);
  EXPECT_EQ(seen.job_id, fake().completions().at(0).header.lease().job_id());
  EXPECT_EQ(seen.spec_name, "fake-1");
  EXPECT_TRUE(seen.managed_memory_found) << "the translate step's hint reaches the validate runner";

  const std::string lease = fake().completions().at(0).header.lease().token();
  int files = 0, steps = 0;
  for (const v1::ReportProgressRequest& request : fake().progress()) {
    EXPECT_EQ(request.lease().task_id(), task_id);
    EXPECT_EQ(request.lease().token(), lease);
    for (const v1::JobEvent& event : request.events()) {
      files += event.has_file_progress();
      steps += event.has_step();
    }
  }
  EXPECT_EQ(files, 2);
  EXPECT_EQ(steps, 1);
}

TEST_F(RunRoleTest, HeartbeatsKeepTheLeaseWhileTheRunnerWorks) {
  ScriptedRunner runner([](const TaskContext&) -> absl::StatusOr<TaskOutput> {
    std::this_thread::sleep_for(700ms);  // the fake's lease is 300 ms: a heartbeat every 100 ms
    return TaskOutput{.summary = "slow"};
  });
  auto worker = MakeWorker(runner);
  const std::string task_id = fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  const auto heartbeats = fake().heartbeats();
  EXPECT_GE(heartbeats.size(), 4u);
  for (const v1::HeartbeatRequest& heartbeat : heartbeats) {
    EXPECT_EQ(heartbeat.lease().task_id(), task_id);
    EXPECT_EQ(heartbeat.lease().token(), fake().completions().at(0).header.lease().token());
    EXPECT_EQ(heartbeat.lease().worker_id(), "stage-test-worker");
  }
}

struct RunnerFailure {
  std::string name;
  std::function<absl::StatusOr<TaskOutput>()> run;
  bool permanent;
  std::string message;
};

TEST_F(RunRoleTest, ARunnerErrorFailsTheAttemptForGoodOnlyWhenARetryWouldReproduceIt) {
  const std::vector<RunnerFailure> cases = {
      {"failed-precondition", [] { return absl::FailedPreconditionError("diff refused a symlink"); }, true,
       "diff refused a symlink"},
      {"invalid-argument", [] { return absl::InvalidArgumentError("spec names no target"); }, true,
       "spec names no target"},
      {"unavailable", [] { return absl::UnavailableError("toolchain cache busy"); }, false, "toolchain cache busy"},
      {"internal", [] { return absl::InternalError("disk full"); }, false, "disk full"},
      {"exception", []() -> absl::StatusOr<TaskOutput> { throw std::runtime_error("json type_error 316"); }, true,
       "exception: json type_error 316"},
      {"out-of-memory", []() -> absl::StatusOr<TaskOutput> { throw std::bad_alloc(); }, false, "out of memory"},
  };
  for (const RunnerFailure& failure : cases) {
    SCOPED_TRACE(failure.name);
    ScriptedRunner runner([&](const TaskContext&) { return failure.run(); });
    auto worker = MakeWorker(runner);
    fake().QueueTask(TranslateTask());
    const v1::FailTaskRequest sent = RunOnceFailing(*worker);
    EXPECT_THAT(sent.error(), HasSubstr(failure.message));
    EXPECT_EQ(sent.permanent(), failure.permanent);
    EXPECT_TRUE(ScratchIsEmpty());
  }
  EXPECT_TRUE(fake().completions().empty());
}

TEST_F(RunRoleTest, ACancelledJobStopsTheRunnerAndNothingIsReported) {
  UntilAbandonedRunner runner;
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = RunOnceAnsweringOnceRunning(*worker, runner, HeartbeatAnswer::kCancel);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCancelled);
  EXPECT_TRUE(runner.saw_abandon.load());
  EXPECT_TRUE(fake().completions().empty()) << "the runner's late result was reported";
  EXPECT_TRUE(fake().failures().empty());
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(RunRoleTest, ALostLeaseStopsTheRunnerAndDropsItsResult) {
  UntilAbandonedRunner runner;
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = RunOnceAnsweringOnceRunning(*worker, runner, HeartbeatAnswer::kLeaseLost);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kLeaseLost);
  EXPECT_TRUE(runner.saw_abandon.load());
  EXPECT_TRUE(fake().completions().empty()) << "a result was reported on a lease that is gone";
  EXPECT_TRUE(fake().failures().empty());
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(RunRoleTest, AStoppingWorkerGivesTheTaskBackAfterTheGraceAndDropsTheResult) {
  UntilAbandonedRunner runner;
  runner.answer = TaskOutput{.summary = "finished after all"};  // must be dropped
  WorkerOptions options = Options();
  options.shutdown_grace = 200ms;
  auto worker = MakeWorker({{v1::TASK_ROLE_TRANSLATE, &runner}}, options);
  const std::string task_id = fake().QueueTask(TranslateTask());
  std::jthread loop([&](std::stop_token stop) { worker->Run(stop); });
  for (int i = 0; i < 500 && !runner.started; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(runner.started.load());
  const auto stop_requested = std::chrono::steady_clock::now();
  loop.request_stop();
  ASSERT_TRUE(worker->WaitUntilStopped(stop_requested + 10s));
  EXPECT_GE(std::chrono::steady_clock::now() - stop_requested, 200ms) << "the grace was not given";
  EXPECT_TRUE(runner.saw_abandon.load());
  const auto failures = fake().failures();
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_TRUE(failures[0].give_back());
  EXPECT_THAT(failures[0].error(), HasSubstr("given back"));
  EXPECT_TRUE(fake().completions().empty()) << "a result was reported for a task given back";
  EXPECT_TRUE(fake().LeaseOf(task_id).empty());
  EXPECT_TRUE(ScratchIsEmpty());

  ScriptedRunner next;  // leasable again at once, on its first counted attempt
  auto other = MakeWorker(next);
  absl::StatusOr<TaskOutcome> outcome = other->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  EXPECT_EQ(next.seen().task_id, task_id);
}

}  // namespace
}  // namespace hipforge::worker::testing
