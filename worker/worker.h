#pragma once
// The worker loop shared by migrate-worker and the server's --local-workers: register, long-poll
// LeaseTask, heartbeat on a timer while working, download and safely extract the input into a
// private temp dir, run the role, stream progress, Complete (or FailTask with the message).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>

#include "absl/status/statusor.h"
#include "hipforge/v1/worker_service.grpc.pb.h"
#include "worker/task_runner.h"
#include "worker/worker_options.h"

namespace hipforge::worker {

// Outcome of one RunOnce, for logs and tests.
// kCancelled: the job was cancelled while the task ran; the runner was told to stop and nothing was reported.
// kGivenBack: the worker was stopped and the grace ran out; the task went back to the server unreported.
enum class TaskOutcome { kNoTask, kCompleted, kCompletionIgnored, kFailed, kLeaseLost, kCancelled, kGivenBack };
const char* TaskOutcomeName(TaskOutcome outcome);

// One leased task's live parts and its stages' state (worker/task_state.h).
class TaskExecution;
struct TaskState;

class Worker {
 public:
  // `runners` maps each role this worker serves to its runner (not owned; must outlive the worker).
  Worker(std::shared_ptr<grpc::Channel> channel, std::map<v1::TaskRole, TaskRunner*> runners, WorkerOptions options);
  ~Worker();

  absl::Status Register();
  // Leases at most one task (waiting up to lease_wait) and runs it to the end.
  absl::StatusOr<TaskOutcome> RunOnce();
  // Registers, then runs tasks until `stop` is requested; retries with backoff while the server is
  // unreachable. An in-flight long poll is cancelled promptly on stop; a task in flight gets
  // shutdown_grace to finish, then is given back.
  void Run(std::stop_token stop);
  // True once Run has returned, false at `deadline`. After a give-back the runner may still be busy
  // (a Clang parse does not look at the abandon flag): a host that must stop in bounded time stops
  // waiting here rather than joining the thread.
  bool WaitUntilStopped(std::chrono::steady_clock::time_point deadline);

  const std::string& id() const { return options_.worker_id; }

 private:
  // A stage either lets the task go on (nullopt) or ends it with this outcome.
  using StageEnd = std::optional<absl::StatusOr<TaskOutcome>>;

  // One task as a list of stages over TaskState (worker/task_state.h), run as a Pipeline (common/pipeline.h):
  // PrepareScratch, DownloadInputs, RunRole, ReportResult, each in worker/stages/<name>.cc.
  absl::StatusOr<TaskOutcome> Execute(const v1::Task& task);
  StageEnd PrepareScratch(TaskState& state);
  StageEnd DownloadInputs(TaskState& state);
  StageEnd DownloadRetrying(TaskState& state, bool original, const std::filesystem::path& into);
  StageEnd DownloadInto(TaskState& state, bool original, const std::filesystem::path& into, bool retry_unavailable);
  StageEnd RunRole(TaskState& state);
  absl::StatusOr<TaskOutcome> ReportResult(TaskState& state);
  grpc::Status SendCompletion(TaskState& state, const std::vector<std::string>& hashes, v1::CompleteResponse& response);
  // FailTask; `permanent`: the failure is deterministic and the job fails without a retry.
  absl::StatusOr<TaskOutcome> Fail(TaskState& state, const absl::Status& error, bool permanent);
  std::unique_ptr<grpc::ClientContext> NewContext(std::chrono::milliseconds timeout) const;

  std::unique_ptr<v1::WorkerService::Stub> stub_;
  std::map<v1::TaskRole, TaskRunner*> runners_;
  WorkerOptions options_;
  std::chrono::milliseconds lease_duration_{std::chrono::seconds(30)};
  int64_t chunk_bytes_ = 1 << 20;

  std::mutex poll_mutex_;
  grpc::ClientContext* current_poll_ = nullptr;  // cancelled from Run's stop callback
  TaskExecution* current_task_ = nullptr;        // told to give back from Run's stop callback
  std::atomic<bool> stopping_{false};
  std::mutex run_mutex_;
  std::condition_variable run_finished_cv_;
  bool run_finished_ = false;
};

}  // namespace hipforge::worker
