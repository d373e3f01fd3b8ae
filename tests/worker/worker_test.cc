// The worker loop (worker/worker.h) against a real server on loopback: download + safe extract,
// heartbeats that keep a long task's lease, progress events, artifacts, and failure reporting.
// The runner here is a small real TaskRunner written for the test; the translate role itself is
// exercised end to end in tests/e2e.
#include <fstream>
#include <thread>

#include <gmock/gmock.h>

#include "tests/server/rpc/rpc_test_support.h"
#include "worker/worker.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using server::testing::ServerTest;
using ::testing::HasSubstr;

// Lists the input tree into a "patch" artifact and reports one file event per file.
class ListingRunner final : public TaskRunner {
 public:
  std::chrono::milliseconds delay{0};
  std::string fail_with;

  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(context.input_root)) {
      if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), context.input_root).generic_string());
    }
    std::sort(files.begin(), files.end());
    int done = 0;
    for (const std::string& file : files) context.progress.FileDone(file, ++done, static_cast<int>(files.size()), "copied");
    context.progress.Step("translate", "listing", "ok", "");
    std::this_thread::sleep_for(delay);
    if (!fail_with.empty()) return absl::InternalError(fail_with);
    TaskOutput output;
    const fs::path listing = context.work_dir / "listing.txt";
    std::ofstream out(listing);
    for (const std::string& file : files) out << file << "\n";
    out.close();
    output.artifacts.push_back({v1::ARTIFACT_KIND_PATCH, v1::COMPRESSION_FORMAT_UNSPECIFIED, listing});
    output.report_json = R"({"translation":{"files":[],"totals":{"files":)" + std::to_string(files.size()) + "}}}";
    output.files_total = static_cast<int>(files.size());
    return output;
  }
};

class WorkerTest : public ServerTest {
 protected:
  void Configure(server::ServerConfig& config) override {
    config.limits.lease_duration = 600ms;
    config.rescue_interval = 100ms;
    config.max_attempts = 1;
  }

  std::unique_ptr<Worker> MakeWorker(TaskRunner& runner, const std::string& id = "test-worker") {
    WorkerOptions options;
    options.worker_id = id;
    options.scratch_root = temp_dir_ / ("scratch-" + id);
    options.lease_wait = 2s;
    return std::make_unique<Worker>(channel_, std::map<v1::TaskRole, TaskRunner*>{{v1::TASK_ROLE_TRANSLATE, &runner}},
                                    options);
  }

  std::string Submit() {
    auto outcome = server::testing::SubmitArchive(*api_, server::testing::TestSpec("worker"),
                                                  server::testing::SmallCudaRepoArchive());
    EXPECT_TRUE(outcome.status.ok()) << outcome.status.error_message();
    return outcome.job.id();
  }
};

TEST_F(WorkerTest, RunsATaskAndUploadsItsArtifactAndEvents) {
  const std::string job_id = Submit();
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);

  v1::Job job = WaitForJob(job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  std::string listing;
  v1::ArtifactInfo info;
  ASSERT_TRUE(server::testing::FetchAll(*api_, job_id, v1::ARTIFACT_KIND_PATCH, &listing, &info).ok());
  EXPECT_EQ(listing, "CMakeLists.txt\nsrc/scale.cu\nsrc/scale.cuh\n");

  grpc::ClientContext context;
  v1::WatchJobRequest request;
  request.set_job_id(job_id);
  auto reader = api_->WatchJob(&context, request);
  v1::JobEvent event;
  int files = 0, steps = 0;
  while (reader->Read(&event)) {
    files += event.has_file_progress();
    steps += event.has_step();
  }
  EXPECT_EQ(files, 3);
  EXPECT_GE(steps, 1);
  // Task scratch dirs are removed after the task.
  EXPECT_TRUE(fs::is_empty(temp_dir_ / "scratch-test-worker"));
}

TEST_F(WorkerTest, HeartbeatsKeepALongTaskLeased) {
  const std::string job_id = Submit();
  ListingRunner runner;
  runner.delay = 2500ms;  // about four lease durations
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  v1::Job job = WaitForJob(job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(job.attempts(), 1);
}

TEST_F(WorkerTest, RunnerErrorFailsTheTaskWithItsMessage) {
  const std::string job_id = Submit();
  ListingRunner runner;
  runner.fail_with = "translator exploded on src/scale.cu";
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kFailed);
  v1::Job job = WaitForJob(job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_FAILED);
  EXPECT_THAT(job.error(), HasSubstr("translator exploded"));
}

TEST_F(WorkerTest, RunLoopProcessesJobsAndStopsOnRequest) {
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  std::jthread loop([&](std::stop_token stop) { worker->Run(stop); });
  std::vector<std::string> ids = {Submit(), Submit()};
  for (const std::string& id : ids) {
    v1::Job job = WaitForJob(id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 20s);
    EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  }
  loop.request_stop();
  loop.join();  // returns although a long poll was in flight
}

// Works until told to stop (the abandon flag), as a long build would between its steps.
class UntilAbandonedRunner final : public TaskRunner {
 public:
  std::atomic<bool> started{false};
  std::atomic<bool> saw_abandon{false};

  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override {
    started = true;
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!context.abandon.load()) {
      if (std::chrono::steady_clock::now() > deadline) return absl::DeadlineExceededError("never told to stop");
      std::this_thread::sleep_for(20ms);
    }
    saw_abandon = true;
    return absl::CancelledError("stopped: job cancelled");
  }
};

TEST_F(WorkerTest, CancellingARunningJobStopsTheWorkersRunner) {
  const std::string job_id = Submit();
  UntilAbandonedRunner runner;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome;
  std::thread run([&] { outcome = worker->RunOnce(); });
  for (int i = 0; i < 500 && !runner.started; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(runner.started.load());

  grpc::ClientContext context;
  v1::CancelJobRequest cancel;
  cancel.set_job_id(job_id);
  cancel.set_reason("wrong branch");
  v1::Job cancelled;
  ASSERT_TRUE(api_->CancelJob(&context, cancel, &cancelled).ok());
  const auto cancelled_at = std::chrono::steady_clock::now();
  run.join();
  // The next heartbeat (a third of the 600 ms lease) carries the cancel; the runner stops right after.
  EXPECT_LT(std::chrono::steady_clock::now() - cancelled_at, 3s);
  EXPECT_TRUE(runner.saw_abandon.load());
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCancelled);

  v1::Job job = WaitForJob(job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_THAT(job.error(), HasSubstr("wrong branch"));
  absl::StatusOr<std::vector<server::TaskInfo>> tasks = app_->store().ListTasks(job_id);
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ(tasks->at(0).state, server::TaskState::kCancelled);
  EXPECT_EQ(tasks->at(0).attempt, 1);  // not retried, not failed by the worker
  EXPECT_TRUE(fs::is_empty(temp_dir_ / "scratch-test-worker"));
}

}  // namespace
}  // namespace hipforge::worker
