#pragma once
// Private to the worker library: what Worker::Execute's stages share (worker.cc runs them; each stage is in
// worker/stages/). The task's live parts (heartbeat thread, progress forwarder, give-back) are
// Worker::TaskExecution; the stage state is Worker::TaskState.
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
#include "worker/scratch_dir.h"
#include "worker/worker.h"

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

// PostgreSQL stores text as UTF-8: a message that is not would fail the RPC that reports it.
inline std::string SafeText(absl::string_view text) {
  const std::string_view bytes(text.data(), text.size());
  return IsValidUtf8(bytes) ? std::string(bytes) : EscapeForMessage(bytes);
}

// Everything that lives for one leased task: the heartbeat thread, the progress forwarder and the
// abandon flag they share with the runner.
class Worker::TaskExecution final : public ProgressReporter {
 public:
  TaskExecution(Worker& worker, const v1::Task& task) : worker_(worker), task_(task) {
    const auto lease = task.lease_duration_ms() > 0 ? std::chrono::milliseconds(task.lease_duration_ms())
                                                    : worker.lease_duration_;
    heartbeat_interval_ = std::max(std::chrono::milliseconds(100), lease / 3);
    heartbeat_ = std::jthread([this](std::stop_token stop) { HeartbeatLoop(stop); });
  }
  ~TaskExecution() override {
    heartbeat_.request_stop();
    heartbeat_cv_.notify_all();
  }

  const std::atomic<bool>& abandon() const { return abandon_; }
  bool lease_lost() const { return lease_lost_.load(); }
  bool cancelled() const { return cancelled_.load(); }
  bool given_back() const { return given_back_.load(); }

  // The worker is stopping: the task has until `deadline`; then the heartbeat thread gives it back.
  void BeginShutdown(Clock::time_point deadline) {
    std::lock_guard lock(heartbeat_mutex_);
    shutdown_deadline_ = deadline;
    heartbeat_cv_.notify_all();
  }
  // The result is being uploaded: from here on the task is finished, never given back. False when it
  // was given back already (the result must then be dropped).
  bool BeginReporting() {
    std::lock_guard lock(phase_mutex_);
    if (given_back_) return false;
    reporting_ = true;
    return true;
  }

  void FileDone(std::string_view path, int done, int total, std::string_view status) override {
    v1::JobEvent event;
    v1::FileProgress* file = event.mutable_file_progress();
    file->set_path(std::string(path));
    file->set_done(done);
    file->set_total(total);
    file->set_status(std::string(status));
    Queue(std::move(event), /*urgent=*/done == total);
  }
  void Step(std::string_view kind, std::string_view name, std::string_view status,
            std::string_view detail) override {
    v1::JobEvent event;
    v1::StepProgress* step = event.mutable_step();
    step->set_kind(std::string(kind));
    step->set_name(std::string(name));
    step->set_status(std::string(status));
    step->set_detail(std::string(detail));
    Queue(std::move(event), /*urgent=*/status != "progress");
  }
  void Log(std::string_view level, std::string_view message) override {
    v1::JobEvent event;
    event.mutable_log()->set_level(std::string(level));
    event.mutable_log()->set_message(std::string(message));
    Queue(std::move(event), /*urgent=*/true);
  }

  // Sends whatever is buffered; called at the end of the task.
  void Flush() {
    std::lock_guard lock(progress_mutex_);
    FlushLocked();
  }

 private:
  void Queue(v1::JobEvent event, bool urgent) {
    std::lock_guard lock(progress_mutex_);
    *pending_.add_events() = std::move(event);
    if (urgent || Clock::now() - last_flush_ >= worker_.options_.progress_interval) FlushLocked();
  }

  void FlushLocked() {
    last_flush_ = Clock::now();
    if (pending_.events().empty() || lease_lost_.load() || cancelled_.load() || given_back_.load()) return;
    pending_.set_task_id(task_.task_id());
    pending_.set_lease_token(task_.lease_token());
    pending_.set_job_id(task_.job_id());
    v1::ReportProgressResponse response;
    auto context = worker_.NewContext(std::chrono::seconds(5));
    grpc::Status status = worker_.stub_->ReportProgress(context.get(), pending_, &response);
    if (!status.ok()) {
      // Progress is best effort; the result still goes through Complete.
      spdlog::warn("[worker={} job={} task={}] progress not delivered: {}", worker_.id(), task_.job_id(),
                   task_.task_id(), status.error_message());
    } else if (!response.accepted()) {
      // The server refuses progress only on a lease that is no longer this worker's (expired and rescued, the job
      // cancelled, the task finished elsewhere): nothing this attempt makes can be reported, so stop it now rather
      // than at the next heartbeat (up to a third of the lease later).
      spdlog::warn("[worker={} job={} task={}] progress refused: the lease is gone; stopping the task", worker_.id(),
                   task_.job_id(), task_.task_id());
      lease_lost_ = true;
      abandon_ = true;
    }
    pending_.clear_events();
  }

  void HeartbeatLoop(std::stop_token stop) {
    while (!stop.stop_requested()) {
      std::optional<Clock::time_point> deadline;
      {
        std::unique_lock lock(heartbeat_mutex_);
        deadline = shutdown_deadline_;
        Clock::duration wait = heartbeat_interval_;
        if (deadline && *deadline > Clock::now()) wait = std::min(wait, *deadline - Clock::now());
        heartbeat_cv_.wait_for(lock, stop, wait, [&] { return shutdown_deadline_ != deadline; });
        deadline = shutdown_deadline_;
      }
      if (stop.stop_requested()) return;
      if (deadline && Clock::now() >= *deadline && GiveBack()) return;
      v1::HeartbeatRequest request;
      request.set_task_id(task_.task_id());
      request.set_lease_token(task_.lease_token());
      request.set_worker_id(worker_.id());
      request.set_job_id(task_.job_id());
      v1::HeartbeatResponse response;
      auto context = worker_.NewContext(std::chrono::seconds(10));
      grpc::Status status = worker_.stub_->Heartbeat(context.get(), request, &response);
      if (IsLeaseLost(status)) {
        spdlog::warn("[worker={} job={} task={}] lease lost: {}", worker_.id(), task_.job_id(), task_.task_id(),
                     status.error_message());
        lease_lost_ = true;
        abandon_ = true;
        return;
      }
      if (!status.ok()) {
        // Transient (server restarting): keep trying; the lease may still be ours when it is back.
        spdlog::warn("[worker={} job={} task={}] heartbeat failed: {}", worker_.id(), task_.job_id(),
                     task_.task_id(), status.error_message());
        continue;
      }
      if (response.cancel_requested()) {
        spdlog::info("[worker={} job={} task={}] job cancelled; stopping the task", worker_.id(), task_.job_id(),
                     task_.task_id());
        cancelled_ = true;
        abandon_ = true;
        return;  // the task is over on the server: nothing more to extend
      }
    }
  }

  // Returns the task to the server (FailTask with give_back): leasable again at once, the attempt not
  // counted. False while the result is being uploaded: that finishes instead. When the call fails the
  // lease simply runs out and the rescuer (or the next server start) re-queues the task.
  bool GiveBack() {
    {
      std::lock_guard lock(phase_mutex_);
      if (reporting_) return false;
      given_back_ = true;
    }
    abandon_ = true;
    v1::FailTaskRequest request;
    request.set_task_id(task_.task_id());
    request.set_lease_token(task_.lease_token());
    request.set_worker_id(worker_.id());
    request.set_job_id(task_.job_id());
    request.set_give_back(true);
    request.set_error(absl::StrCat("worker ", worker_.id(), " stopped before the task finished (",
                                   worker_.options_.shutdown_grace.count(), " ms grace); given back"));
    v1::FailTaskResponse response;
    auto context = worker_.NewContext(std::chrono::seconds(5));
    grpc::Status status = worker_.stub_->FailTask(context.get(), request, &response);
    if (status.ok()) {
      spdlog::info("[worker={} job={} task={}] stopping: gave the task back to the server{}", worker_.id(),
                   task_.job_id(), task_.task_id(), response.accepted() ? "" : " (its lease had already gone)");
    } else {
      spdlog::warn("[worker={} job={} task={}] stopping: could not give the task back ({}); its lease will expire",
                   worker_.id(), task_.job_id(), task_.task_id(), status.error_message());
    }
    return true;
  }

  Worker& worker_;
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
struct Worker::TaskState {
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
