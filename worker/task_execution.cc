#include <algorithm>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "worker/task_state.h"

namespace hipforge::worker {
namespace {
constexpr int kMaxPendingEvents = 2000;  // progress kept for the next flush while no server answers
}  // namespace

TaskExecution::TaskExecution(v1::WorkerService::Stub& stub, const WorkerOptions& options,
                             std::chrono::milliseconds lease_duration, const v1::Task& task)
    : stub_(stub), options_(options), task_(task) {
  const auto lease =
      task.lease_duration_ms() > 0 ? std::chrono::milliseconds(task.lease_duration_ms()) : lease_duration;
  heartbeat_interval_ = std::max(std::chrono::milliseconds(100), lease / 3);
  heartbeat_ = std::jthread([this](std::stop_token stop) { HeartbeatLoop(stop); });
}

TaskExecution::~TaskExecution() {
  heartbeat_.request_stop();
  heartbeat_cv_.notify_all();
}

void TaskExecution::BeginShutdown(Clock::time_point deadline) {
  std::lock_guard lock(heartbeat_mutex_);
  shutdown_deadline_ = deadline;
  heartbeat_cv_.notify_all();
}

bool TaskExecution::BeginReporting() {
  std::lock_guard lock(phase_mutex_);
  if (given_back_) return false;
  reporting_ = true;
  return true;
}

void TaskExecution::FileDone(std::string_view path, int done, int total, std::string_view status) {
  v1::JobEvent event;
  v1::FileProgress* file = event.mutable_file_progress();
  file->set_path(std::string(path));
  file->set_done(done);
  file->set_total(total);
  file->set_status(std::string(status));
  Queue(std::move(event), /*urgent=*/done == total);
}

void TaskExecution::Step(std::string_view kind, std::string_view name, std::string_view status,
                         std::string_view detail) {
  v1::JobEvent event;
  v1::StepProgress* step = event.mutable_step();
  step->set_kind(std::string(kind));
  step->set_name(std::string(name));
  step->set_status(std::string(status));
  step->set_detail(std::string(detail));
  Queue(std::move(event), /*urgent=*/status != "progress");
}

void TaskExecution::Log(std::string_view level, std::string_view message) {
  v1::JobEvent event;
  event.mutable_log()->set_level(std::string(level));
  event.mutable_log()->set_message(std::string(message));
  Queue(std::move(event), /*urgent=*/true);
}

void TaskExecution::Flush() {
  std::lock_guard lock(progress_mutex_);
  FlushLocked();
}

void TaskExecution::Queue(v1::JobEvent event, bool urgent) {
  std::lock_guard lock(progress_mutex_);
  *pending_.add_events() = std::move(event);
  if (urgent || Clock::now() - last_flush_ >= options_.progress_interval) FlushLocked();
}

void TaskExecution::FlushLocked() {
  last_flush_ = Clock::now();
  if (pending_.events().empty() || lease_lost_.load() || cancelled_.load() || given_back_.load()) return;
  *pending_.mutable_lease() = task_.lease();
  v1::ReportProgressResponse response;
  auto context = NewCallContext(std::chrono::seconds(5));
  grpc::Status status = stub_.ReportProgress(context.get(), pending_, &response);
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE && pending_.events_size() < kMaxPendingEvents) {
    // Its server went away (restart, or death with the next server listed): the events go with the next flush.
    spdlog::warn("[worker={} job={} task={}] progress not delivered yet: {}", options_.worker_id,
                 task_.lease().job_id(), task_.lease().task_id(), status.error_message());
    return;
  }
  if (!status.ok()) {
    // Progress is best effort; the result still goes through Complete.
    spdlog::warn("[worker={} job={} task={}] progress not delivered: {}", options_.worker_id, task_.lease().job_id(),
                 task_.lease().task_id(), status.error_message());
  } else if (!response.accepted()) {
    // The server refuses progress only on a lease that is no longer this worker's (expired and rescued, the job
    // cancelled, the task finished elsewhere): nothing this attempt makes can be reported, so stop it now rather
    // than at the next heartbeat (up to a third of the lease later).
    spdlog::warn("[worker={} job={} task={}] progress refused: the lease is gone; stopping the task",
                 options_.worker_id, task_.lease().job_id(), task_.lease().task_id());
    lease_lost_ = true;
    abandon_ = true;
  }
  pending_.clear_events();
}

void TaskExecution::HeartbeatLoop(std::stop_token stop) {
  bool last_failed = false;
  while (!stop.stop_requested()) {
    std::optional<Clock::time_point> deadline;
    {
      std::unique_lock lock(heartbeat_mutex_);
      deadline = shutdown_deadline_;
      // After a failed heartbeat (its server died; the channel moves to the next one) the next comes sooner: the
      // lease must be extended through another server before it runs out.
      Clock::duration wait = last_failed
                                 ? std::min<Clock::duration>(heartbeat_interval_, std::chrono::milliseconds(500))
                                 : Clock::duration(heartbeat_interval_);
      if (deadline && *deadline > Clock::now()) wait = std::min(wait, *deadline - Clock::now());
      heartbeat_cv_.wait_for(lock, stop, wait, [&] { return shutdown_deadline_ != deadline; });
      deadline = shutdown_deadline_;
    }
    if (stop.stop_requested()) return;
    if (deadline && Clock::now() >= *deadline && GiveBack()) return;
    v1::HeartbeatRequest request;
    *request.mutable_lease() = task_.lease();
    v1::HeartbeatResponse response;
    auto context = NewCallContext(std::chrono::seconds(10));
    grpc::Status status = stub_.Heartbeat(context.get(), request, &response);
    if (IsLeaseLost(status)) {
      spdlog::warn("[worker={} job={} task={}] lease lost: {}", options_.worker_id, task_.lease().job_id(),
                   task_.lease().task_id(), status.error_message());
      lease_lost_ = true;
      abandon_ = true;
      return;
    }
    if (!status.ok()) {
      // Transient (server restarting): keep trying; the lease may still be ours when it is back.
      spdlog::warn("[worker={} job={} task={}] heartbeat failed: {}", options_.worker_id, task_.lease().job_id(),
                   task_.lease().task_id(), status.error_message());
      last_failed = true;
      continue;
    }
    last_failed = false;
    if (response.cancel_requested()) {
      spdlog::info("[worker={} job={} task={}] job cancelled; stopping the task", options_.worker_id,
                   task_.lease().job_id(), task_.lease().task_id());
      cancelled_ = true;
      abandon_ = true;
      return;  // the task is over on the server: nothing more to extend
    }
  }
}

bool TaskExecution::GiveBack() {
  {
    std::lock_guard lock(phase_mutex_);
    if (reporting_) return false;
    given_back_ = true;
  }
  abandon_ = true;
  v1::FailTaskRequest request;
  *request.mutable_lease() = task_.lease();
  request.set_give_back(true);
  request.set_error(absl::StrCat("worker ", options_.worker_id, " stopped before the task finished (",
                                 options_.shutdown_grace.count(), " ms grace); given back"));
  v1::FailTaskResponse response;
  auto context = NewCallContext(std::chrono::seconds(5));
  grpc::Status status = stub_.FailTask(context.get(), request, &response);
  if (status.ok()) {
    spdlog::info("[worker={} job={} task={}] stopping: gave the task back to the server{}", options_.worker_id,
                 task_.lease().job_id(), task_.lease().task_id(),
                 response.accepted() ? "" : " (its lease had already gone)");
  } else {
    spdlog::warn("[worker={} job={} task={}] stopping: could not give the task back ({}); its lease will expire",
                 options_.worker_id, task_.lease().job_id(), task_.lease().task_id(), status.error_message());
  }
  return true;
}

}  // namespace hipforge::worker
