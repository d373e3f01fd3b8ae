#include "server/task_service.h"

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "common/redact.h"
#include "common/report/report_json.h"

namespace hipforge::server {
TaskService::TaskService(Stores stores, ArtifactStore& artifacts, const Clock& clock, ServiceLimits limits)
    : stores_(stores), artifacts_(artifacts), clock_(clock), limits_(limits) {}

namespace {

absl::Status CheckRolesGranted(const WorkerIdentity& identity, const std::vector<TaskKind>& roles) {
  for (TaskKind role : roles) {
    if (!identity.MayRun(TaskKindName(role))) {
      return absl::PermissionDeniedError(absl::StrCat("worker credential ", identity.credential_id, " (pool '",
                                                      identity.pool, "') does not grant the ",
                                                      std::string(TaskKindName(role)), " role"));
    }
  }
  return absl::OkStatus();
}

// An allowed toolchain matches exactly, or as a prefix when it ends with '*' ("rocm-6.*").
bool ToolchainAllowed(const WorkerIdentity& identity, const std::string& toolchain) {
  if (identity.toolchains.empty()) return true;
  for (const std::string& allowed : identity.toolchains) {
    if (allowed == toolchain) return true;
    if (!allowed.empty() && allowed.back() == '*' && toolchain.rfind(allowed.substr(0, allowed.size() - 1), 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::Status TaskService::RegisterWorker(const WorkerIdentity& identity, const WorkerInfo& worker,
                                         std::vector<std::string> capability_tags,
                                         const std::vector<std::string>& toolchains, std::string toolchains_json) {
  if (worker.id.empty()) return absl::InvalidArgumentError("worker id is empty");
  if (worker.roles.empty()) return absl::InvalidArgumentError("worker has no roles");
  if (absl::Status granted = CheckRolesGranted(identity, worker.roles); !granted.ok()) return granted;
  for (const std::string& toolchain : toolchains) {
    if (!ToolchainAllowed(identity, toolchain)) {
      return absl::PermissionDeniedError(absl::StrCat("worker credential ", identity.credential_id, " (pool '",
                                                      identity.pool, "') does not allow toolchain '", toolchain, "'"));
    }
  }
  {
    std::lock_guard lock(capabilities_mutex_);
    auto owner = registered_credential_.find(worker.id);
    if (owner != registered_credential_.end() && owner->second != identity.credential_id) {
      return absl::PermissionDeniedError(
          absl::StrCat("worker id ", worker.id, " is registered under another credential"));
    }
  }
  absl::Status status = stores_.workers.RegisterWorker(worker);
  if (status.ok()) {
    std::lock_guard lock(capabilities_mutex_);
    capabilities_[worker.id] = std::move(capability_tags);
    registered_roles_[worker.id] = worker.roles;
    registered_credential_[worker.id] = identity.credential_id;
    toolchains_[worker.id] = std::move(toolchains_json);
  }
  if (status.ok()) {
    spdlog::info("[worker={}] registered with {} (pool {}): {}", worker.id, identity.credential_id, identity.pool,
                 worker.capabilities_json);
  }
  return status;
}

absl::StatusOr<std::optional<LeaseGrant>> TaskService::Lease(const WorkerIdentity& identity,
                                                             const std::string& worker_id,
                                                             const std::vector<TaskKind>& roles,
                                                             std::chrono::milliseconds wait,
                                                             const std::function<bool()>& cancelled) {
  using Steady = std::chrono::steady_clock;
  const auto deadline = Steady::now() + std::clamp(wait, std::chrono::milliseconds(0), limits_.max_lease_wait);
  LeaseRequest request{worker_id, roles, {}, limits_.lease_duration};
  {
    std::lock_guard lock(capabilities_mutex_);
    auto it = capabilities_.find(worker_id);
    // After a server restart workers must register again (their next poll gets NotFound).
    if (it == capabilities_.end()) return absl::NotFoundError(absl::StrCat("worker ", worker_id, " is not registered"));
    if (registered_credential_[worker_id] != identity.credential_id) {
      return absl::PermissionDeniedError(
          absl::StrCat("worker id ", worker_id, " is registered under another credential"));
    }
    request.capabilities = it->second;
    request.toolchains_json = toolchains_[worker_id];
    if (request.roles.empty()) request.roles = registered_roles_[worker_id];  // the proto's "empty: as registered"
  }
  if (absl::Status granted = CheckRolesGranted(identity, request.roles); !granted.ok()) return granted;
  (void)stores_.workers.WorkerHeartbeat(worker_id);
  for (;;) {
    // A caller that went away (a worker that stopped) must not be handed a task nobody will run.
    if (cancelled()) return std::nullopt;
    absl::StatusOr<std::optional<LeasedTask>> leased = stores_.leases.LeaseTask(request);
    if (!leased.ok()) return leased.status();
    if (leased->has_value()) {
      LeasedTask& task = **leased;
      if (cancelled()) {
        // It left while the lease was being taken: give the task back at once, its attempt not counted.
        (void)stores_.leases.GiveBackTask(task.lease, "the worker stopped before it received the task");
        spdlog::info("[job={}] [worker={}] task {} given back: the worker's poll ended before the lease reached it",
                     task.lease.job_id, worker_id, task.lease.task_id);
        return std::nullopt;
      }
      absl::StatusOr<Job> job = stores_.jobs.GetJob(task.lease.job_id);
      if (!job.ok()) return job.status();
      spdlog::info("[job={}] [worker={}] leased {} task {} attempt {}/{}", task.lease.job_id, worker_id,
                   TaskKindName(task.kind), task.lease.task_id, task.attempt, task.max_attempts);
      report::ValidateHints hints;
      if (task.kind == TaskKind::kValidate) {
        const nlohmann::json payload = nlohmann::json::parse(task.payload_json, nullptr, false);
        if (payload.is_object()) hints = report::ValidateHintsFromJson(payload.value("hints", nlohmann::json()));
        // One validate task per platform of a job with gfx and sm_ targets: the worker builds this task's only.
        if (payload.is_object() && payload.contains("platform") && payload["targets"].is_array()) {
          job->spec.targets.clear();
          for (const auto& target : payload["targets"]) {
            if (target.is_string()) job->spec.targets.push_back(target.get<std::string>());
          }
        }
      }
      return LeaseGrant{std::move(task), *std::move(job), hints};
    }
    const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Steady::now());
    if (remaining <= std::chrono::milliseconds(0) || cancelled()) return std::nullopt;
    // Bounded: tasks whose retry backoff ends do not notify, and the caller may go away.
    stores_.leases.WaitForWork(std::min(remaining, std::chrono::milliseconds(500)));
  }
}

absl::StatusOr<HeartbeatOutcome> TaskService::Heartbeat(const server::Lease& lease) {
  if (!lease.worker_id.empty()) (void)stores_.workers.WorkerHeartbeat(lease.worker_id);
  absl::StatusOr<TimePoint> expiry = stores_.leases.HeartbeatTask(lease, limits_.lease_duration);
  if (expiry.ok()) return HeartbeatOutcome{*expiry, false};
  if (expiry.status().code() != absl::StatusCode::kFailedPrecondition || lease.job_id.empty()) return expiry.status();
  // CancelJob voided the lease; tell the worker why, so it stops instead of guessing at a rescue.
  absl::StatusOr<Job> job = stores_.jobs.GetJob(lease.job_id);
  if (!job.ok() || job->state != JobState::kCancelled) return expiry.status();
  absl::StatusOr<std::vector<TaskInfo>> tasks = stores_.jobs.ListTasks(lease.job_id);
  if (!tasks.ok()) return expiry.status();
  for (const TaskInfo& task : *tasks) {
    if (task.id == lease.task_id) {
      spdlog::info("[job={}] [worker={}] heartbeat of task {}: job cancelled, telling the worker to stop", lease.job_id,
                   lease.worker_id, lease.task_id);
      return HeartbeatOutcome{TimePoint{}, true};
    }
  }
  return expiry.status();
}

absl::Status TaskService::CheckLease(const server::Lease& lease) {
  return stores_.leases.HeartbeatTask(lease, limits_.lease_duration).status();
}

absl::StatusOr<InputDownload> TaskService::OpenInput(const server::Lease& lease, bool original) {
  if (absl::Status held = CheckLease(lease); !held.ok()) return held;
  const std::string& task_id = lease.task_id;
  absl::StatusOr<std::vector<TaskInfo>> tasks = stores_.jobs.ListTasks(lease.job_id);
  if (!tasks.ok()) return tasks.status();
  for (const TaskInfo& task : *tasks) {
    if (task.id != task_id) continue;
    nlohmann::json payload = nlohmann::json::parse(task.payload_json, nullptr, false);
    const char* key = task.kind == TaskKind::kValidate && !original ? "translated_digest" : "input_digest";
    std::string digest = payload.is_object() ? payload.value(key, "") : "";
    if (digest.empty()) {
      return absl::FailedPreconditionError(absl::StrCat("task ", task_id, " has no ", key, " in its payload"));
    }
    absl::StatusOr<std::unique_ptr<ArtifactReader>> reader = artifacts_.Open(digest);
    if (!reader.ok()) return reader.status();
    return InputDownload{digest, *std::move(reader)};
  }
  return absl::NotFoundError(absl::StrCat("task ", task_id, " not found in job ", lease.job_id));
}

absl::Status TaskService::AppendProgress(const server::Lease& lease,
                                         const std::vector<std::pair<std::string, std::string>>& events) {
  if (absl::Status held = CheckLease(lease); !held.ok()) return held;
  for (const auto& [kind, payload] : events) {
    // Job events reach users and the dashboard: build output quoted in them loses any secret.
    absl::StatusOr<int64_t> seq = stores_.events.AppendEvent(lease.job_id, kind, RedactSecrets(payload));
    if (!seq.ok()) return seq.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ArtifactWriter>> TaskService::NewArtifactWriter() {
  return artifacts_.NewWriter(limits_.max_artifact_bytes);
}

absl::StatusOr<CompletionOutcome> TaskService::Complete(const CompletionRequest& raw_request) {
  CompletionRequest request = raw_request;
  request.summary = RedactSecrets(request.summary);
  TaskCompletion completion;
  completion.lease = request.lease;
  completion.result_json =
      nlohmann::json{{"ok", request.ok}, {"summary", request.summary}, {"worker_id", request.lease.worker_id}}.dump();
  completion.report = request.report;
  completion.validate_hints_json = report::ToJson(request.validate_hints).dump();
  completion.artifacts = request.artifacts;
  if (!request.ok) completion.job_failure = request.summary.empty() ? "task reported failure" : request.summary;
  absl::StatusOr<CompletionOutcome> outcome = stores_.leases.CompleteTask(completion);
  if (outcome.ok()) {
    static constexpr const char* kNames[] = {"applied", "ignored (duplicate)", "ignored (lease lost)"};
    spdlog::info("[job={}] [worker={}] completion of task {}: {}", request.lease.job_id, request.lease.worker_id,
                 request.lease.task_id, kNames[static_cast<int>(*outcome)]);
  }
  return outcome;
}

absl::StatusOr<FailureOutcome> TaskService::Fail(const server::Lease& lease, const std::string& raw_error,
                                                 bool permanent) {
  const std::string error = RedactSecrets(raw_error);  // becomes the job's error message
  // Logged only once the lease is known to be the caller's: anyone's text must not read as a task's failure.
  if (absl::Status held = CheckLease(lease); !held.ok()) {
    if (held.code() != absl::StatusCode::kFailedPrecondition && held.code() != absl::StatusCode::kNotFound) {
      return held;
    }
    spdlog::warn("[job={}] FailTask for task {} refused (its text not recorded): {}", lease.job_id, lease.task_id,
                 std::string(held.message()));
    return FailureOutcome::kLeaseLost;
  }
  spdlog::warn("[job={}] task {} failed{}: {}", lease.job_id, lease.task_id, permanent ? " permanently" : "", error);
  if (permanent) {
    // A retry cannot help: finish the task with the job failed.
    TaskCompletion completion;
    completion.lease = lease;
    completion.result_json = nlohmann::json{{"ok", false}, {"error", error}}.dump();
    completion.job_failure = error;
    absl::StatusOr<CompletionOutcome> outcome = stores_.leases.CompleteTask(completion);
    if (!outcome.ok()) return outcome.status();
    return *outcome == CompletionOutcome::kApplied ? FailureOutcome::kDeadLettered : FailureOutcome::kLeaseLost;
  }
  return stores_.leases.FailTask(lease, error);
}

absl::StatusOr<FailureOutcome> TaskService::GiveBack(const server::Lease& lease, const std::string& reason) {
  absl::StatusOr<FailureOutcome> outcome = stores_.leases.GiveBackTask(lease, reason);
  if (outcome.ok()) {
    spdlog::info("[job={}] task {} given back{}: {}", lease.job_id, lease.task_id,
                 *outcome == FailureOutcome::kLeaseLost ? " (lease no longer held: nothing changed)" : "", reason);
  }
  return outcome;
}

}  // namespace hipforge::server
