// The PrepareScratch stage (worker/stages/prepare_scratch.cc): the role's runner is found, the task gets its own
// scratch dir (input/, work/, original/ for validate tasks) that is removed when the task ends, and dirs that
// killed workers left are swept on start (worker/scratch_dir.h).
#include <thread>

#include <gmock/gmock.h>

#include "tests/worker/stages/stage_test_support.h"
#include "worker/scratch_dir.h"

namespace hipforge::worker::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class PrepareScratchTest : public WorkerStageTest {};

TEST_F(PrepareScratchTest, EachTaskGetsItsOwnScratchDirThatIsRemovedAfterwards) {
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);
  const std::string first = fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  const SeenContext seen = runner.seen();
  const fs::path task_dir = seen.work_dir.parent_path();
  EXPECT_EQ(task_dir.parent_path(), scratch_root());
  EXPECT_THAT(task_dir.filename().string(), StartsWith(first + "-"));
  EXPECT_EQ(seen.work_dir.filename(), "work");
  EXPECT_TRUE(seen.work_dir_existed) << "the work dir is made before the runner runs";
  EXPECT_EQ(seen.input_root, task_dir / "input");
  EXPECT_TRUE(seen.original_root.empty()) << "translate tasks get no original tree";
  EXPECT_TRUE(ScratchIsEmpty()) << "the task dir outlived its task";

  fake().QueueTask(TranslateTask());
  ASSERT_TRUE(worker->RunOnce().ok());
  EXPECT_NE(runner.seen().work_dir.parent_path(), task_dir);
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(PrepareScratchTest, ValidateTasksGetAnOriginalTreeDirBesideTheInput) {
  ScriptedRunner runner;
  auto worker = MakeWorker({{v1::TASK_ROLE_VALIDATE, &runner}}, Options());
  ScriptedTask task = TranslateTask();
  task.role = v1::TASK_ROLE_VALIDATE;
  task.original.archive = SmallRepoArchive();
  fake().QueueTask(task);
  ASSERT_TRUE(worker->RunOnce().ok());
  ASSERT_EQ(runner.runs(), 1);
  const SeenContext seen = runner.seen();
  EXPECT_EQ(seen.original_root, seen.work_dir.parent_path() / "original");
  EXPECT_EQ(seen.input_root, seen.work_dir.parent_path() / "input");
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(PrepareScratchTest, KeepScratchLeavesTheTaskDirForDebugging) {
  ScriptedRunner runner;
  WorkerOptions options = Options();
  options.keep_scratch = true;
  auto worker = MakeWorker({{v1::TASK_ROLE_TRANSLATE, &runner}}, options);
  fake().QueueTask(TranslateTask());
  ASSERT_TRUE(worker->RunOnce().ok());
  EXPECT_TRUE(fs::is_regular_file(runner.seen().input_root / "src" / "scale.cu"));
}

TEST_F(PrepareScratchTest, ARoleWithoutARunnerFailsTheAttemptForAnotherWorkerAndDownloadsNothing) {
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);  // translate only
  ScriptedTask task = TranslateTask();
  task.role = v1::TASK_ROLE_VALIDATE;
  fake().QueueTask(task);
  const v1::FailTaskRequest failure = RunOnceFailing(*worker);
  EXPECT_THAT(failure.error(), HasSubstr("worker has no runner for TASK_ROLE_VALIDATE"));
  EXPECT_FALSE(failure.permanent()) << "another worker may serve the role";
  EXPECT_FALSE(failure.give_back());
  EXPECT_TRUE(fake().downloads().empty());
  EXPECT_EQ(runner.runs(), 0);
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(PrepareScratchTest, AScratchRootThatCannotBeMadeFailsTheAttemptTransiently) {
  ScriptedRunner runner;
  std::ofstream(root_ / "a-file") << "not a directory";
  WorkerOptions options = Options();
  options.scratch_root = root_ / "a-file" / "scratch";
  auto worker = MakeWorker({{v1::TASK_ROLE_TRANSLATE, &runner}}, options);
  fake().QueueTask(TranslateTask());
  const v1::FailTaskRequest failure = RunOnceFailing(*worker);
  EXPECT_FALSE(failure.permanent()) << "a local disk problem is not the input's fault";
  EXPECT_FALSE(failure.error().empty());
  EXPECT_EQ(runner.runs(), 0);
  EXPECT_TRUE(fake().downloads().empty());
}

TEST_F(PrepareScratchTest, DirsLeftByKilledWorkersAreSweptOnStartLiveOnesKept) {
  fs::create_directories(scratch_root() / "task-9-deadbeef" / "input" / "src");
  std::ofstream(scratch_root() / "task-9-deadbeef" / "input" / "src" / "big.cu") << "left by kill -9";
  // A task of another worker sharing the root, alive: its lock is held.
  absl::StatusOr<std::unique_ptr<TaskScratchDir>> live = TaskScratchDir::Create(scratch_root(), "live-task", false);
  ASSERT_TRUE(live.ok()) << live.status();
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);
  {
    std::jthread loop([&](std::stop_token stop) { worker->Run(stop); });
    // The sweep runs before the first registration.
    EXPECT_TRUE(fake().WaitFor([](const FakeWorkerService& f) { return f.registrations() > 0; }, 5s));
  }
  EXPECT_FALSE(fs::exists(scratch_root() / "task-9-deadbeef"));
  EXPECT_TRUE(fs::is_directory(scratch_root() / "live-task"));
  live->reset();
  EXPECT_TRUE(ScratchIsEmpty());
}

}  // namespace
}  // namespace hipforge::worker::testing
