// The worker loop (worker/worker.h) against a real server on loopback: download + safe extract,
// heartbeats that keep a long task's lease, progress events, artifacts, and failure reporting.
// The runner here is a small real TaskRunner written for the test; the translate role itself is
// exercised end to end in tests/e2e.
#include <fstream>
#include <random>
#include <thread>

#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "tests/server/rpc/rpc_test_support.h"
#include "tests/worker/until_abandoned_runner.h"
#include "worker/scratch_dir.h"
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
  absl::StatusCode fail_code = absl::StatusCode::kInternal;
  bool throw_from_report = false;  // what a name that is not UTF-8 once did to the translate runner

  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(context.input_root)) {
      if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), context.input_root).generic_string());
    }
    std::sort(files.begin(), files.end());
    int done = 0;
    for (const std::string& file : files)
      context.progress.FileDone(file, ++done, static_cast<int>(files.size()), "copied");
    context.progress.Step("translate", "listing", "ok", "");
    std::this_thread::sleep_for(delay);
    if (!fail_with.empty()) return absl::Status(fail_code, fail_with);
    if (throw_from_report) {
      nlohmann::json report = {{"path", "src/caf\xe9.cu"}};
      report.dump();  // nlohmann::json::type_error 316
    }
    TaskOutput output;
    const fs::path listing = context.work_dir / "listing.txt";
    std::ofstream out(listing);
    for (const std::string& file : files) out << file << "\n";
    out.close();
    output.artifacts.push_back({v1::ARTIFACT_KIND_PATCH, v1::COMPRESSION_FORMAT_UNSPECIFIED, listing});
    report::TranslationSection translation;
    translation.totals.files = static_cast<int>(files.size());
    output.report = report::Report{.translation = translation};
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

  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
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
  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
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
  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_FAILED);
  EXPECT_THAT(job.error(), HasSubstr("translator exploded"));
}

TEST_F(WorkerTest, RunLoopProcessesJobsAndStopsOnRequest) {
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  std::jthread loop([&](std::stop_token stop) { worker->Run(stop); });
  std::vector<std::string> ids = {Submit(), Submit()};
  for (const std::string& id : ids) {
    v1::Job job = WaitForJob(
        id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 20s);
    EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  }
  loop.request_stop();
  loop.join();  // returns although a long poll was in flight
}

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

  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_THAT(job.error(), HasSubstr("wrong branch"));
  absl::StatusOr<std::vector<server::TaskInfo>> tasks = app_->store().ListTasks(job_id);
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ(tasks->at(0).state, server::TaskState::kCancelled);
  EXPECT_EQ(tasks->at(0).attempt, 1);  // not retried, not failed by the worker
  EXPECT_TRUE(fs::is_empty(temp_dir_ / "scratch-test-worker"));
}

// A worker stopped (SIGTERM) while its runner is busy: after the grace it gives the task back at once,
// without the attempt counted, and another worker finishes it. With max_attempts 1 here, a lease left to
// expire instead would dead-letter the task and fail the job.
TEST_F(WorkerTest, StoppingWorkerGivesItsTaskBackAfterTheGraceWithoutUsingAnAttempt) {
  const std::string job_id = Submit();
  UntilAbandonedRunner runner;
  WorkerOptions options;
  options.worker_id = "stopping-worker";
  options.scratch_root = temp_dir_ / "scratch-stopping-worker";
  options.lease_wait = 2s;
  options.shutdown_grace = 300ms;
  Worker worker(channel_, {{v1::TASK_ROLE_TRANSLATE, &runner}}, options);
  std::jthread loop([&worker](std::stop_token stop) { worker.Run(stop); });
  for (int i = 0; i < 500 && !runner.started; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(runner.started.load());

  const auto stop_requested = std::chrono::steady_clock::now();
  loop.request_stop();
  ASSERT_TRUE(worker.WaitUntilStopped(stop_requested + 10s)) << "the loop did not end";
  const auto stopped_after = std::chrono::steady_clock::now() - stop_requested;
  EXPECT_GE(stopped_after, 300ms) << "the grace was not given";
  EXPECT_LT(stopped_after, 3s);
  EXPECT_TRUE(runner.saw_abandon.load());
  absl::StatusOr<std::vector<server::TaskInfo>> tasks = app_->store().ListTasks(job_id);
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ(tasks->at(0).state, server::TaskState::kAvailable);
  EXPECT_EQ(tasks->at(0).attempt, 0);
  EXPECT_TRUE(fs::is_empty(temp_dir_ / "scratch-stopping-worker"));

  ListingRunner finisher;
  auto next = MakeWorker(finisher, "next-worker");
  ASSERT_TRUE(next->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = next->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error();
  EXPECT_EQ(job.attempts(), 1);
}

// Jobs get three attempts here, so a retry would show.
class WorkerRetryTest : public WorkerTest {
 protected:
  void Configure(server::ServerConfig& config) override {
    WorkerTest::Configure(config);
    config.max_attempts = 3;
    config.limits.upload.max_compression_ratio = 1000;  // reaches the worker through RegisterWorker
  }

  int Attempts(const std::string& job_id) {
    absl::StatusOr<std::vector<server::TaskInfo>> tasks = app_->store().ListTasks(job_id);
    EXPECT_TRUE(tasks.ok()) << tasks.status();
    int attempts = 0;
    if (tasks.ok()) {
      for (const server::TaskInfo& task : *tasks) attempts += task.attempt;
    }
    return attempts;
  }
};

TEST_F(WorkerRetryTest, AnExceptionFromTheRunnerFailsThatJobOnlyAndTheWorkerGoesOn) {
  const std::string job_id = Submit();
  ListingRunner runner;
  runner.throw_from_report = true;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();  // threw through to here before
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kFailed);
  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_FAILED) << "the same input throws again: no retry";
  EXPECT_THAT(job.error(), HasSubstr("exception"));
  EXPECT_EQ(Attempts(job_id), 1);
  EXPECT_TRUE(fs::is_empty(temp_dir_ / "scratch-test-worker"));

  runner.throw_from_report = false;  // the next job runs normally on the same worker
  const std::string next = Submit();
  outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  EXPECT_EQ(WaitForJob(
                next, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s)
                .state(),
            v1::JOB_STATE_SUCCEEDED);
}

TEST_F(WorkerRetryTest, DeterministicFailuresAreNotRetriedTransientOnesAre) {
  const std::string job_id = Submit();
  ListingRunner runner;
  runner.fail_with = "patch step: diff refused a symlink";
  runner.fail_code = absl::StatusCode::kFailedPrecondition;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  ASSERT_TRUE(worker->RunOnce().ok());
  v1::Job job = WaitForJob(
      job_id, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(Attempts(job_id), 1);

  const std::string transient = Submit();
  runner.fail_code = absl::StatusCode::kUnavailable;
  ASSERT_TRUE(worker->RunOnce().ok());
  runner.fail_with.clear();
  for (int i = 0;
       i < 10 && !server::testing::IsFinal(WaitForJob(transient, [](const v1::Job&) { return true; }).state()); ++i) {
    ASSERT_TRUE(worker->RunOnce().ok());
  }
  EXPECT_EQ(WaitForJob(
                transient, [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s)
                .state(),
            v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(Attempts(transient), 2);
}

// 20 MiB of zeros and 40 KiB of noise: ~350:1, above the worker's default 200 and below the server's 1000.
std::string ArchiveWithRatioBetween200And1000() {
  std::mt19937 rng(11);
  std::string noise(40 << 10, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  server::testing::TarBuilder builder;
  builder.File("src/scale.cu", "__global__ void scale(float* x) { x[0] *= 2; }\n")
      .File("data/zeros.bin", std::string(20 << 20, '\0'))
      .File("data/noise.bin", noise);
  return builder.Build(server::testing::TarBuilder::Compression::kGzip);
}

TEST_F(WorkerRetryTest, LimitsSetOnTheServerReachTheWorker) {
  const std::string archive = ArchiveWithRatioBetween200And1000();
  const double ratio = static_cast<double>((20 << 20) + (40 << 10)) / static_cast<double>(archive.size());
  ASSERT_GT(ratio, 250);
  ASSERT_LT(ratio, 900);
  auto submitted = server::testing::SubmitArchive(*api_, server::testing::TestSpec("ratio"), archive);
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  v1::Job job = WaitForJob(
      submitted.job.id(), [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
}

TEST_F(WorkerRetryTest, TrailingBytesAfterTheArchiveDoNotFailTheChecksum) {
  // Big enough that the bytes after the archive arrive in download chunks the extractor never asks for.
  std::mt19937 rng(5);
  std::string noise(400 << 10, '\0'), trailing(300 << 10, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  for (char& c : trailing) c = static_cast<char>(rng());
  server::testing::TarBuilder builder;
  builder.File("src/scale.cu", "__global__ void scale(float* x) { x[0] *= 2; }\n").File("data/noise.bin", noise);
  auto submitted =
      server::testing::SubmitArchive(*api_, server::testing::TestSpec("trailing"), builder.Build() + trailing);
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  v1::Job job = WaitForJob(
      submitted.job.id(), [](const v1::Job& j) { return server::testing::IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error();
  EXPECT_EQ(Attempts(submitted.job.id()), 1);
}

TEST_F(WorkerTest, ScratchDirsOfKilledWorkersAreRemovedOnStartLiveOnesKept) {
  const fs::path root = temp_dir_ / "scratch-test-worker";
  fs::create_directories(root / "deadbeef-task-1234" / "input" / "src");
  std::ofstream(root / "deadbeef-task-1234" / "input" / "src" / "big.cu") << "left by kill -9";
  // A task of another worker sharing the root, alive: its lock is held.
  absl::StatusOr<std::unique_ptr<TaskScratchDir>> live = TaskScratchDir::Create(root, "live-task", /*keep=*/false);
  ASSERT_TRUE(live.ok()) << live.status();
  ListingRunner runner;
  auto worker = MakeWorker(runner);
  {
    std::jthread loop([&](std::stop_token stop) { worker->Run(stop); });
    for (int i = 0; i < 200 && fs::exists(root / "deadbeef-task-1234"); ++i) std::this_thread::sleep_for(10ms);
  }
  EXPECT_FALSE(fs::exists(root / "deadbeef-task-1234"));
  EXPECT_TRUE(fs::is_directory(root / "live-task"));
  live->reset();
  EXPECT_TRUE(fs::is_empty(root));
}

}  // namespace
}  // namespace hipforge::worker
