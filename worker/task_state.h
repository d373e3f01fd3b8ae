#pragma once
// Private to the worker library: what Worker::Execute's stages share (worker.cc runs them; each stage is in
// worker/stages/). The task's live parts (heartbeat thread, progress forwarder, give-back) are TaskExecution;
// the stage state is TaskState. Below worker.h: a task's execution talks to the server through the stub and the
// options it is given, not through the Worker.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "hipforge/v1/worker_service.grpc.pb.h"
#include "worker/scratch_dir.h"
#include "worker/task_runner.h"
#include "worker/worker_options.h"

namespace hipforge::worker {

using Clock = std::chrono::steady_clock;

inline absl::Status ToAbsl(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

// Lease lost: expired and rescued, job cancelled, or completed by someone else.
inline bool IsLeaseLost(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
         status.error_code() == grpc::StatusCode::NOT_FOUND;
}

// A call's context with a deadline `timeout` from now.
inline std::unique_ptr<grpc::ClientContext> NewCallContext(std::chrono::milliseconds timeout) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(std::chrono::system_clock::now() + timeout);
  return context;
}

// PostgreSQL stores text as UTF-8: a message that is not would fail the RPC that reports it.
inline std::string SafeText(absl::string_view text) {
  const std::string_view bytes(text.data(), text.size());
  return IsValidUtf8(bytes) ? std::string(bytes) : EscapeForMessage(bytes);
}

// Everything that lives for one leased task: the heartbeat thread, the progress forwarder and the
// abandon flag they share with the runner (worker/task_execution.cc).
class TaskExecution final : public ProgressReporter {
 public:
  // `lease_duration`: the server's, for a task that does not carry its own.
  TaskExecution(v1::WorkerService::Stub& stub, const WorkerOptions& options, std::chrono::milliseconds lease_duration,
                const v1::Task& task);
  ~TaskExecution() override;

  const std::atomic<bool>& abandon() const { return abandon_; }
  bool lease_lost() const { return lease_lost_.load(); }
  bool cancelled() const { return cancelled_.load(); }
  bool given_back() const { return given_back_.load(); }

  // The worker is stopping: the task has until `deadline`; then the heartbeat thread gives it back.
  void BeginShutdown(Clock::time_point deadline);
  // The result is being uploaded: from here on the task is finished, never given back. False when it
  // was given back already (the result must then be dropped).
  bool BeginReporting();

  void FileDone(std::string_view path, int done, int total, std::string_view status) override;
  void Step(std::string_view kind, std::string_view name, std::string_view status, std::string_view detail) override;
  void Log(std::string_view level, std::string_view message) override;

  // Sends whatever is buffered; called at the end of the task.
  void Flush();

 private:
  void Queue(v1::JobEvent event, bool urgent);
  void FlushLocked();
  void HeartbeatLoop(std::stop_token stop);
  // Returns the task to the server (FailTask with give_back): leasable again at once, the attempt not
  // counted. False while the result is being uploaded: that finishes instead. When the call fails the
  // lease simply runs out and the rescuer (or the next server start) re-queues the task.
  bool GiveBack();

  v1::WorkerService::Stub& stub_;
  const WorkerOptions& options_;
  const v1::Task& task_;
  std::atomic<bool> abandon_{false};
  std::atomic<bool> lease_lost_{false};
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> given_back_{false};
  std::mutex phase_mutex_;  // given_back_ vs reporting_: a task is either given back or reported
  bool reporting_ = false;
  std::chrono::milliseconds heartbeat_interval_;
  std::mutex heartbeat_mutex_;
  std::condition_variable_any heartbeat_cv_;
  std::optional<Clock::time_point> shutdown_deadline_;  // guarded by heartbeat_mutex_
  std::mutex progress_mutex_;
  v1::ReportProgressRequest pending_;
  Clock::time_point last_flush_{};
  std::jthread heartbeat_;  // last: joined first on destruction
};

// Everything one task's stages share, from lease to report.
struct TaskState {
  const v1::Task& task;
  std::string tag;  // log prefix
  TaskExecution& execution;
  TaskRunner* runner = nullptr;
  std::unique_ptr<TaskScratchDir> scratch;  // input/, original/, work/; removed at the end
  std::filesystem::path input_root;
  std::filesystem::path original_root;  // validate tasks only
  absl::StatusOr<TaskOutput> output = absl::UnknownError("the role did not run");
};

}  // namespace hipforge::worker
