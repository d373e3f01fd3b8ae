#include "worker/worker.h"

#include <condition_variable>
#include <optional>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "common/pipeline.h"
#include "common/utf8.h"
#include "worker/scratch_dir.h"
#include "worker/task_state.h"

namespace hipforge::worker {
namespace fs = std::filesystem;

const char* TaskOutcomeName(TaskOutcome outcome) {
  switch (outcome) {
    case TaskOutcome::kNoTask: return "no-task";
    case TaskOutcome::kCompleted: return "completed";
    case TaskOutcome::kCompletionIgnored: return "completion-ignored";
    case TaskOutcome::kFailed: return "failed";
    case TaskOutcome::kLeaseLost: return "lease-lost";
    case TaskOutcome::kCancelled: return "cancelled";
    case TaskOutcome::kGivenBack: return "given-back";
  }
  return "?";
}

Worker::Worker(std::shared_ptr<grpc::Channel> channel, std::map<v1::TaskRole, TaskRunner*> runners,
               WorkerOptions options)
    : stub_(v1::WorkerService::NewStub(std::move(channel))),
      runners_(std::move(runners)),
      options_(std::move(options)) {
  if (options_.scratch_root.empty()) options_.scratch_root = fs::temp_directory_path() / "hipforge-worker";
}

Worker::~Worker() = default;

std::unique_ptr<grpc::ClientContext> Worker::NewContext(std::chrono::milliseconds timeout) const {
  return NewCallContext(timeout);
}

absl::Status Worker::Register() {
  v1::RegisterWorkerRequest request;
  request.set_worker_id(options_.worker_id);
  for (const auto& [role, runner] : runners_) request.add_roles(role);
  *request.mutable_capabilities() = options_.capabilities;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) request.set_hostname(host);
  v1::RegisterWorkerResponse response;
  auto context = NewContext(options_.rpc_timeout);
  grpc::Status status = stub_->RegisterWorker(context.get(), request, &response);
  if (!status.ok()) return ToAbsl(status);
  if (response.lease_duration_ms() > 0) lease_duration_ = std::chrono::milliseconds(response.lease_duration_ms());
  if (response.chunk_bytes() > 0) chunk_bytes_ = response.chunk_bytes();
  if (response.has_input_limits()) {
    // Extract under the limits Submit checked: what the server accepted, the worker accepts.
    const v1::ArchiveLimits& limits = response.input_limits();
    ExtractLimits& extract = options_.extract_limits;
    if (limits.max_compressed_bytes() > 0) extract.max_compressed_bytes = limits.max_compressed_bytes();
    if (limits.max_uncompressed_bytes() > 0) extract.max_uncompressed_bytes = limits.max_uncompressed_bytes();
    if (limits.max_files() > 0) extract.max_files = limits.max_files();
    if (limits.max_compression_ratio() > 0) extract.max_compression_ratio = limits.max_compression_ratio();
    if (limits.ratio_check_floor_bytes() > 0) extract.ratio_check_floor_bytes = limits.ratio_check_floor_bytes();
  }
  // Inputs include translated trees, whose renamed names (kernel.cu -> kernel.hip) may pass the upload's limit.
  options_.extract_limits.max_name_bytes = kMaxDerivedNameBytes;
  spdlog::info("[worker={}] registered; lease {} ms", options_.worker_id, lease_duration_.count());
  return absl::OkStatus();
}

absl::StatusOr<TaskOutcome> Worker::RunOnce() {
  v1::LeaseTaskRequest request;
  request.set_worker_id(options_.worker_id);
  for (const auto& [role, runner] : runners_) request.add_roles(role);
  request.set_wait_ms(options_.lease_wait.count());
  v1::LeaseTaskResponse response;
  auto context = NewContext(options_.lease_wait + options_.rpc_timeout);
  {
    std::lock_guard lock(poll_mutex_);
    if (stopping_) return TaskOutcome::kNoTask;
    current_poll_ = context.get();
  }
  grpc::Status status = stub_->LeaseTask(context.get(), request, &response);
  {
    std::lock_guard lock(poll_mutex_);
    current_poll_ = nullptr;
  }
  if (stopping_ && status.error_code() == grpc::StatusCode::CANCELLED) return TaskOutcome::kNoTask;
  if (!status.ok()) return ToAbsl(status);
  if (!response.has_task()) return TaskOutcome::kNoTask;
  return Execute(response.task());
}

absl::StatusOr<TaskOutcome> Worker::Execute(const v1::Task& task) {
  const std::string tag = absl::StrCat("[worker=", options_.worker_id, " job=", task.lease().job_id(),
                                       " task=", task.lease().task_id(), "]");
  spdlog::info("{} leased {} task, attempt {}", tag, v1::TaskRole_Name(task.role()), task.attempt());
  TaskExecution execution(*stub_, options_, lease_duration_, task);
  {
    std::lock_guard lock(poll_mutex_);
    current_task_ = &execution;
    if (stopping_) execution.BeginShutdown(Clock::now() + options_.shutdown_grace);
  }
  struct ForgetTask {
    Worker& worker;
    ~ForgetTask() {
      std::lock_guard lock(worker.poll_mutex_);
      worker.current_task_ = nullptr;
    }
  } forget_task{*this};  // before `execution` goes
  TaskState state{.task = task, .tag = tag, .execution = execution};
  try {
    // The stages in the order they run (each in worker/stages/<name>.cc); the last always ends the task.
    const Pipeline<TaskState, StageEnd> stages(
        "task", {{"PrepareScratch", [this](TaskState& s) { return PrepareScratch(s); }},
                 {"DownloadInputs", [this](TaskState& s) { return DownloadInputs(s); }},
                 {"RunRole", [this](TaskState& s) { return RunRole(s); }},
                 {"ReportResult", [this](TaskState& s) { return StageEnd(ReportResult(s)); }}});
    StageEnd end = stages.Run(state);
    return end ? *std::move(end) : absl::InternalError("the task's stages ended without an outcome");
  } catch (const std::exception& error) {
    // Worker code itself (not the role) threw: report it like any other failure of this attempt.
    return Fail(state, absl::InternalError(absl::StrCat("worker error: ", EscapeForMessage(error.what()))),
                /*permanent=*/false);
  }
}

absl::StatusOr<TaskOutcome> Worker::Fail(TaskState& state, const absl::Status& error, bool permanent) {
  state.execution.Flush();
  if (state.execution.given_back()) return TaskOutcome::kGivenBack;
  if (state.execution.cancelled()) return TaskOutcome::kCancelled;
  if (state.execution.lease_lost()) return TaskOutcome::kLeaseLost;
  spdlog::warn("{} failing task{}: {}", state.tag, permanent ? " (deterministic: no retry)" : "", error.ToString());
  v1::FailTaskRequest request;
  *request.mutable_lease() = state.task.lease();
  request.set_error(SafeText(error.message()));
  request.set_permanent(permanent);
  v1::FailTaskResponse response;
  auto context = NewContext(options_.rpc_timeout);
  grpc::Status status = stub_->FailTask(context.get(), request, &response);
  if (!status.ok()) {
    // Not lost: the heartbeats end with this attempt, the lease runs out on the server and its rescuer queues the
    // task again (the attempt counted). The error goes to Run, which retries the server after a backoff.
    spdlog::warn("{} FailTask not delivered ({}); the lease will run out and the server retry the task", state.tag,
                 status.error_message());
    return ToAbsl(status);
  }
  return response.accepted() ? TaskOutcome::kFailed : TaskOutcome::kLeaseLost;
}

void Worker::Run(std::stop_token stop) {
  std::stop_callback on_stop(stop, [this] {
    std::lock_guard lock(poll_mutex_);
    stopping_ = true;
    if (current_poll_ != nullptr) current_poll_->TryCancel();
    if (current_task_ != nullptr) current_task_->BeginShutdown(Clock::now() + options_.shutdown_grace);
  });
  std::mutex sleep_mutex;
  std::condition_variable_any sleeper;
  auto sleep = [&](std::chrono::milliseconds duration) {
    std::unique_lock lock(sleep_mutex);
    sleeper.wait_for(lock, stop, duration, [] { return false; });
  };
  if (int removed = SweepAbandonedScratch(options_.scratch_root); removed > 0) {
    spdlog::info("[worker={}] removed {} scratch dir(s) left by stopped workers", options_.worker_id, removed);
  }
  std::chrono::milliseconds backoff(200);
  bool registered = false;
  while (!stop.stop_requested()) {
    if (!registered) {
      absl::Status status = Register();
      if (!status.ok()) {
        spdlog::warn("[worker={}] register failed: {}; retrying in {} ms", options_.worker_id,
                     std::string(status.message()), backoff.count());
        sleep(backoff);
        backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
        continue;
      }
      registered = true;
      backoff = std::chrono::milliseconds(200);
    }
    absl::StatusOr<TaskOutcome> outcome = absl::UnknownError("not run");
    try {
      outcome = RunOnce();
    } catch (const std::exception& error) {
      // Never let one task end the loop (or, for in-process workers, the server).
      outcome = absl::InternalError(absl::StrCat("task loop: ", EscapeForMessage(error.what())));
    }
    if (!outcome.ok()) {
      if (stop.stop_requested()) break;
      spdlog::warn("[worker={}] {}; retrying in {} ms", options_.worker_id, outcome.status().ToString(),
                   backoff.count());
      // The server may have restarted and forgotten us: register again.
      if (outcome.status().code() == absl::StatusCode::kUnavailable ||
          outcome.status().code() == absl::StatusCode::kNotFound) {
        registered = false;
      }
      sleep(backoff);
      backoff = std::min(backoff * 2, std::chrono::milliseconds(5000));
      continue;
    }
    backoff = std::chrono::milliseconds(200);
  }
  spdlog::info("[worker={}] stopped", options_.worker_id);
  std::lock_guard lock(run_mutex_);
  run_finished_ = true;
  run_finished_cv_.notify_all();
}

bool Worker::WaitUntilStopped(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(run_mutex_);
  return run_finished_cv_.wait_until(lock, deadline, [this] { return run_finished_; });
}

}  // namespace hipforge::worker
