#pragma once
// What the unit tests of Worker's task stages (worker/stages/) share: a Worker whose server is the in-memory
// FakeWorkerService (tests/support/fake_worker_service.h), a runner scripted per test, and small archives.
// Each stage is reached through Worker::RunOnce (the stages are private): a test scripts the server and the
// runner so that the stage under test decides the outcome.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/hostile/tar_forge.h"
#include "tests/support/fake_worker_service.h"
#include "worker/worker.h"

namespace hipforge::worker::testing {

namespace fs = std::filesystem;
using hipforge::testing::FakeWorkerServer;
using hipforge::testing::FakeWorkerService;
using hipforge::testing::HeartbeatAnswer;
using hipforge::testing::ScriptedTask;
using hipforge::testing::TarForge;

// What a runner saw of its TaskContext (the context itself holds references that end with the run).
struct SeenContext {
  std::string job_id, task_id, spec_name;
  fs::path input_root, original_root, work_dir;
  bool managed_memory_found = false;
  bool work_dir_existed = false;
};

// A TaskRunner whose Run is the test's function; counts its runs and keeps what the last one saw.
class ScriptedRunner final : public TaskRunner {
 public:
  using Body = std::function<absl::StatusOr<TaskOutput>(const TaskContext&)>;
  explicit ScriptedRunner(Body body = nullptr) : body_(std::move(body)) {}

  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override {
    {
      std::lock_guard lock(mutex_);
      ++runs_;
      seen_ = SeenContext{.job_id = context.job_id,
                          .task_id = context.task_id,
                          .spec_name = context.spec.name(),
                          .input_root = context.input_root,
                          .original_root = context.original_root,
                          .work_dir = context.work_dir,
                          .managed_memory_found = context.managed_memory_found,
                          .work_dir_existed = fs::is_directory(context.work_dir)};
    }
    if (body_) return body_(context);
    return TaskOutput{.summary = "ran"};
  }
  int runs() const {
    std::lock_guard lock(mutex_);
    return runs_;
  }
  SeenContext seen() const {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  Body body_;
  mutable std::mutex mutex_;
  int runs_ = 0;
  SeenContext seen_;
};

// Reads a file the runner was given (empty when absent).
inline std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A tar.gz of a two-file CUDA repository.
inline std::string SmallRepoArchive() {
  return hipforge::testing::Gzip(TarForge()
                                     .File("src/scale.cu", "__global__ void scale(float* x) { x[0] *= 2; }\n")
                                     .File("CMakeLists.txt", "project(scale LANGUAGES CUDA)\n")
                                     .Build());
}

inline ScriptedTask TranslateTask(std::string archive = SmallRepoArchive()) {
  ScriptedTask task;
  task.role = v1::TASK_ROLE_TRANSLATE;
  task.input.archive = std::move(archive);
  return task;
}

class WorkerStageTest : public ::testing::Test {
 protected:
  WorkerStageTest() {
    std::mt19937_64 rng{std::random_device{}()};
    root_ = fs::temp_directory_path() / ("hipforge-worker-stage-test-" + std::to_string(rng()));
    fs::create_directories(root_);
  }
  ~WorkerStageTest() override {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  FakeWorkerService& fake() { return server_.service(); }
  fs::path scratch_root() const { return root_ / "scratch"; }

  WorkerOptions Options() const {
    WorkerOptions options;
    options.worker_id = "stage-test-worker";
    options.scratch_root = scratch_root();
    options.lease_wait = std::chrono::milliseconds(500);
    options.rpc_timeout = std::chrono::seconds(10);
    return options;
  }
  std::unique_ptr<Worker> MakeWorker(std::map<v1::TaskRole, TaskRunner*> runners, WorkerOptions options) {
    return std::make_unique<Worker>(server_.channel(), std::move(runners), std::move(options));
  }
  std::unique_ptr<Worker> MakeWorker(TaskRunner& translate) {
    return MakeWorker({{v1::TASK_ROLE_TRANSLATE, &translate}}, Options());
  }
  // RunOnce on a task a stage fails: expects the kFailed outcome and exactly one new FailTask; returns it.
  v1::FailTaskRequest RunOnceFailing(Worker& worker) {
    const size_t before = fake().failures().size();
    absl::StatusOr<TaskOutcome> outcome = worker.RunOnce();
    EXPECT_TRUE(outcome.ok()) << outcome.status();
    if (outcome.ok()) EXPECT_EQ(*outcome, TaskOutcome::kFailed) << TaskOutcomeName(*outcome);
    const auto failures = fake().failures();
    EXPECT_EQ(failures.size(), before + 1);
    return failures.size() > before ? failures.back() : v1::FailTaskRequest();
  }
  // True when no task dir is left under the scratch root (it may not exist at all).
  bool ScratchIsEmpty() const { return !fs::exists(scratch_root()) || fs::is_empty(scratch_root()); }

  fs::path root_;
  FakeWorkerServer server_;
};

}  // namespace hipforge::worker::testing
