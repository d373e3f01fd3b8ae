#include "tests/server/fakes/in_memory_job_store.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "common/report/report_json.h"

namespace hipforge::server::testing {
namespace {

using nlohmann::json;

bool IsOpen(TaskState state) {
  return state == TaskState::kAvailable || state == TaskState::kRunning || state == TaskState::kFailed;
}

json ObjectOrInvalid(const std::string& text) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return value.is_object() ? value : json();
}

}  // namespace

InMemoryJobStore::InMemoryJobStore(const Clock& clock, InMemoryStoreOptions options)
    : clock_(clock), options_(options) {}

std::string InMemoryJobStore::NewId() {
  // uuid-shaped, so callers that check the shape accept it
  char text[40];
  std::snprintf(text, sizeof text, "00000000-0000-4000-8000-%012lld", static_cast<long long>(next_id_++));
  return text;
}

Job* InMemoryJobStore::FindJob(const std::string& job_id) {
  auto it = jobs_.find(job_id);
  return it == jobs_.end() ? nullptr : &it->second;
}

InMemoryJobStore::Task* InMemoryJobStore::FindHeldTask(const Lease& lease) {
  Task* task = FindTask(lease.task_id);
  return task != nullptr && task->info.state == TaskState::kRunning && task->token == lease.token ? task : nullptr;
}

InMemoryJobStore::Task* InMemoryJobStore::FindTask(const std::string& task_id) {
  for (Task& task : tasks_) {
    if (task.info.id == task_id) return &task;
  }
  return nullptr;
}

void InMemoryJobStore::Append(const std::string& job_id, const std::string& kind, const json& payload) {
  events_.push_back({next_seq_++, job_id, kind, payload.dump(), clock_.Now()});
  events_changed_.notify_all();
}

void InMemoryJobStore::SetState(Job& job, JobState state, const std::string& error) {
  const JobState from = job.state;
  job.state = state;
  job.updated_at = clock_.Now();
  if (!error.empty()) job.error_message = error;
  json payload = {{"state", JobStateName(state)}, {"from", JobStateName(from)}};
  if (!error.empty()) payload["error"] = error;
  Append(job.id, "state", payload);
}

void InMemoryJobStore::Enqueue(const Job& job, TaskKind kind, const std::string& hints_json) {
  for (const Task& task : tasks_) {
    if (task.info.job_id == job.id && task.info.kind == kind) return;  // a stage at most once per job
  }
  json payload = {{"input_digest", job.input_digest},
                  {"targets", job.spec.targets},
                  {"options", ObjectOrInvalid(job.spec.options_json)},
                  {"job_name", job.spec.name},
                  {"team", job.spec.team}};
  if (auto tree = artifacts_[job.id].find("translated_tree"); tree != artifacts_[job.id].end()) {
    payload["translated_digest"] = tree->second.digest;
  }
  if (!hints_json.empty()) payload["hints"] = json::parse(hints_json);
  Task task;
  task.info.id = NewId();
  task.info.job_id = job.id;
  task.info.kind = kind;
  task.info.max_attempts = options_.default_max_attempts;
  task.info.run_after = clock_.Now();
  if (kind == TaskKind::kValidate) task.info.required_capabilities = job.spec.validate_capabilities;
  task.info.payload_json = payload.dump();
  task.info.result_json = "null";
  task.order = next_order_++;
  tasks_.push_back(std::move(task));
  work_changed_.notify_all();
}

absl::StatusOr<Job> InMemoryJobStore::CreateJob(const JobSpec& spec, const ArtifactRef& input) {
  if (!json::accept(spec.options_json) || !ObjectOrInvalid(spec.options_json).is_object()) {
    return absl::InvalidArgumentError("job options are not a JSON object");
  }
  std::lock_guard lock(mutex_);
  const std::pair<std::string, std::string> request{spec.team, spec.request_id};
  if (!spec.request_id.empty()) {
    if (auto found = submit_requests_.find(request); found != submit_requests_.end()) return jobs_[found->second];
  }
  Job job;
  job.id = NewId();
  job.spec = spec;
  job.spec.request_id.clear();  // written only, as in PostgreSQL
  if (!spec.request_id.empty()) submit_requests_[request] = job.id;
  job.input_digest = input.digest;
  job.created_at = job.updated_at = clock_.Now();
  ArtifactRef attached = input;
  attached.role = input.role.empty() ? "input" : input.role;
  artifacts_[job.id][attached.role] = attached;
  Job& stored = jobs_[job.id] = job;
  Append(job.id, "state", {{"state", JobStateName(JobState::kQueued)}});
  Enqueue(stored, TaskKind::kTranslate, "");
  return stored;
}

absl::StatusOr<Job> InMemoryJobStore::GetJob(const std::string& job_id) {
  std::lock_guard lock(mutex_);
  if (Job* job = FindJob(job_id)) return *job;
  return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
}

absl::StatusOr<ListJobsPage> InMemoryJobStore::ListJobs(const ListJobsRequest& request) {
  std::lock_guard lock(mutex_);
  std::vector<const Job*> matching;
  for (const auto& [id, job] : jobs_) {
    if (request.team && job.spec.team != *request.team) continue;
    if (request.state && job.state != *request.state) continue;
    if (request.label) {
      auto it = job.spec.labels.find(request.label->first);
      if (it == job.spec.labels.end() || it->second != request.label->second) continue;
    }
    matching.push_back(&job);
  }
  // Newest first: ids grow with creation.
  std::sort(matching.begin(), matching.end(), [](const Job* a, const Job* b) { return a->id > b->id; });
  const size_t page_size = static_cast<size_t>(std::clamp(request.page_size, 1, 500));
  size_t start = 0;
  if (!request.page_token.empty()) start = static_cast<size_t>(std::stoul(request.page_token));
  ListJobsPage page;
  for (size_t i = start; i < matching.size() && page.jobs.size() < page_size; ++i) page.jobs.push_back(*matching[i]);
  if (start + page.jobs.size() < matching.size()) page.next_page_token = std::to_string(start + page.jobs.size());
  return page;
}

Job* InMemoryJobStore::FindTeamJob(const std::string& team, const std::string& job_id) {
  Job* job = FindJob(job_id);
  return job != nullptr && job->spec.team == team ? job : nullptr;
}

absl::StatusOr<Job> InMemoryJobStore::GetTeamJob(const std::string& team, const std::string& job_id) {
  std::lock_guard lock(mutex_);
  if (Job* job = FindTeamJob(team, job_id)) return *job;
  return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));  // worded like an absent one
}

absl::StatusOr<std::vector<std::string>> InMemoryJobStore::FindTeamJobIds(const std::string& team,
                                                                          const std::string& hex_prefix, int limit) {
  if (hex_prefix.empty() || hex_prefix.size() > 32 ||
      hex_prefix.find_first_not_of("0123456789abcdef") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("a job id prefix is 1 to 32 lowercase hex digits, got '", hex_prefix, "'"));
  }
  std::lock_guard lock(mutex_);
  std::vector<std::string> ids;  // jobs_ is ordered by id, as the store's query is
  for (const auto& [id, job] : jobs_) {
    if (static_cast<int>(ids.size()) >= limit) break;
    std::string hex = id;
    hex.erase(std::remove(hex.begin(), hex.end(), '-'), hex.end());
    if (job.spec.team == team && hex.compare(0, hex_prefix.size(), hex_prefix) == 0) ids.push_back(id);
  }
  return ids;
}

absl::StatusOr<Job> InMemoryJobStore::CancelLocked(Job& job, const std::string& reason) {
  if (IsTerminal(job.state)) {
    return absl::FailedPreconditionError(
        absl::StrCat("job ", job.id, " already ", std::string(JobStateName(job.state))));
  }
  for (Task& task : tasks_) {
    if (task.info.job_id != job.id || !IsOpen(task.info.state)) continue;
    task.info.state = TaskState::kCancelled;
    task.info.last_error = reason;
    task.info.lease_owner.reset();
    task.info.lease_expires_at.reset();
    task.token.clear();
  }
  SetState(job, JobState::kCancelled, reason);
  return job;
}

absl::StatusOr<Job> InMemoryJobStore::CancelJob(const std::string& job_id, const std::string& reason) {
  std::lock_guard lock(mutex_);
  Job* job = FindJob(job_id);
  if (job == nullptr) return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
  return CancelLocked(*job, reason);
}

absl::StatusOr<Job> InMemoryJobStore::CancelTeamJob(const std::string& team, const std::string& job_id,
                                                    const std::string& reason) {
  std::lock_guard lock(mutex_);
  Job* job = FindTeamJob(team, job_id);
  if (job == nullptr) return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
  return CancelLocked(*job, reason);
}

absl::StatusOr<int64_t> InMemoryJobStore::AppendEvent(const std::string& job_id, const std::string& kind,
                                                      const std::string& payload_json) {
  json payload = ObjectOrInvalid(payload_json);
  if (!payload.is_object()) return absl::InvalidArgumentError("event payload is not a JSON object");
  std::lock_guard lock(mutex_);
  if (FindJob(job_id) == nullptr) return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
  Append(job_id, kind, payload);
  return next_seq_ - 1;
}

absl::StatusOr<std::vector<JobEvent>> InMemoryJobStore::ListEventsSince(const std::string& job_id, int64_t after_seq,
                                                                        int limit) {
  std::lock_guard lock(mutex_);
  std::vector<JobEvent> events;
  for (const JobEvent& event : events_) {
    if (event.job_id == job_id && event.seq > after_seq && static_cast<int>(events.size()) < limit) {
      events.push_back(event);
    }
  }
  return events;
}

bool InMemoryJobStore::WaitForJobEvents(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const int64_t seen = next_seq_;
  return events_changed_.wait_for(lock, timeout, [&] { return next_seq_ != seen; });
}

absl::StatusOr<std::optional<LeasedTask>> InMemoryJobStore::LeaseTask(const LeaseRequest& request) {
  std::lock_guard lock(mutex_);
  const TimePoint now = clock_.Now();
  Task* best = nullptr;
  for (Task& task : tasks_) {
    const TaskInfo& info = task.info;
    if (info.state != TaskState::kAvailable && info.state != TaskState::kFailed) continue;
    if (info.run_after > now) continue;
    if (std::find(request.roles.begin(), request.roles.end(), info.kind) == request.roles.end()) continue;
    const bool capable =
        std::all_of(info.required_capabilities.begin(), info.required_capabilities.end(), [&](const std::string& tag) {
          return std::find(request.capabilities.begin(), request.capabilities.end(), tag) != request.capabilities.end();
        });
    if (!capable) continue;
    const Job* job = FindJob(info.job_id);
    if (job == nullptr || IsTerminal(job->state)) continue;
    if (best == nullptr || std::tie(info.run_after, task.order) < std::tie(best->info.run_after, best->order)) {
      best = &task;
    }
  }
  if (best == nullptr) return std::optional<LeasedTask>();
  best->info.state = TaskState::kRunning;
  best->info.attempt += 1;
  best->info.lease_owner = request.worker_id;
  best->info.lease_expires_at = now + request.lease_duration;
  best->token = NewId();
  Job& job = *FindJob(best->info.job_id);
  if (job.state == JobState::kQueued || job.state == JobState::kTranslated) {
    SetState(job, best->info.kind == TaskKind::kTranslate ? JobState::kTranslating : JobState::kValidating, "");
  }
  return std::optional<LeasedTask>(LeasedTask{Lease{best->info.job_id, best->info.id, request.worker_id, best->token},
                                              best->info.kind, best->info.attempt, best->info.max_attempts,
                                              *best->info.lease_expires_at, best->info.payload_json});
}

absl::StatusOr<TimePoint> InMemoryJobStore::HeartbeatTask(const Lease& lease,
                                                          std::chrono::milliseconds lease_duration) {
  std::lock_guard lock(mutex_);
  Task* task = FindHeldTask(lease);
  if (task == nullptr) {
    return absl::FailedPreconditionError("lease of task " + lease.task_id + " lost");
  }
  task->info.lease_expires_at = clock_.Now() + lease_duration;
  return *task->info.lease_expires_at;
}

absl::StatusOr<CompletionOutcome> InMemoryJobStore::CompleteTask(const TaskCompletion& completion) {
  if (!json::accept(completion.result_json)) return absl::InvalidArgumentError("task result is not JSON");
  if (!completion.validate_hints_json.empty() && !ObjectOrInvalid(completion.validate_hints_json).is_object()) {
    return absl::InvalidArgumentError("validate hints are not a JSON object");
  }
  std::unique_lock lock(mutex_);
  Task* task = FindTask(completion.lease.task_id);
  if (task == nullptr) return CompletionOutcome::kLeaseLost;
  if (task->info.state != TaskState::kRunning || task->token != completion.lease.token) {
    const bool duplicate = task->info.state == TaskState::kCompleted && task->token == completion.lease.token;
    return duplicate ? CompletionOutcome::kAlreadyCompleted : CompletionOutcome::kLeaseLost;
  }
  task->info.state = TaskState::kCompleted;
  task->info.result_json = completion.result_json;
  task->info.lease_expires_at.reset();
  const std::string job_id = task->info.job_id;
  const TaskKind kind = task->info.kind;
  for (const ArtifactRef& artifact : completion.artifacts) artifacts_[job_id][artifact.role] = artifact;
  if (completion.report) {
    json report = report::ToJson(*completion.report);
    report.erase("job_id");
    json& document = reports_[job_id];
    if (!document.is_object()) document = json::object();
    for (auto& [section, value] : report.items()) document[section] = value;
  }
  Append(job_id, "task", {{"task_id", completion.lease.task_id}, {"kind", TaskKindName(kind)}, {"state", "completed"}});
  Job& job = *FindJob(job_id);
  if (IsTerminal(job.state)) return CompletionOutcome::kApplied;
  if (completion.job_failure) {
    SetState(job, JobState::kFailed, *completion.job_failure);
  } else if (kind == TaskKind::kTranslate && job.spec.validate && !job.spec.targets.empty()) {
    SetState(job, JobState::kTranslated, "");
    Enqueue(job, TaskKind::kValidate, completion.validate_hints_json);
  } else {
    SetState(job, JobState::kSucceeded, "");
  }
  return CompletionOutcome::kApplied;
}

absl::StatusOr<FailureOutcome> InMemoryJobStore::FailTask(const Lease& lease, const std::string& error) {
  std::lock_guard lock(mutex_);
  Task* task = FindHeldTask(lease);
  if (task == nullptr) return FailureOutcome::kLeaseLost;
  TaskInfo& info = task->info;
  info.last_error = error;
  info.lease_owner.reset();
  info.lease_expires_at.reset();
  task->token.clear();
  if (info.attempt >= info.max_attempts) {
    info.state = TaskState::kDead;
    SetState(*FindJob(info.job_id), JobState::kFailed, error);
    return FailureOutcome::kDeadLettered;
  }
  info.state = TaskState::kFailed;
  const double backoff_ms = options_.retry_backoff_base.count() * std::pow(2.0, info.attempt - 1);
  info.run_after = clock_.Now() + std::chrono::milliseconds(static_cast<int64_t>(backoff_ms));
  Append(info.job_id, "task_retry", {{"task_id", lease.task_id}, {"attempt", info.attempt}, {"error", error}});
  return FailureOutcome::kRetryScheduled;
}

absl::StatusOr<FailureOutcome> InMemoryJobStore::GiveBackTask(const Lease& lease, const std::string& reason) {
  std::lock_guard lock(mutex_);
  Task* task = FindHeldTask(lease);
  if (task == nullptr) return FailureOutcome::kLeaseLost;
  TaskInfo& info = task->info;
  info.state = TaskState::kAvailable;
  info.attempt -= 1;  // a given-back attempt is not counted
  info.last_error = reason;
  info.lease_owner.reset();
  info.lease_expires_at.reset();
  info.run_after = clock_.Now();
  task->token.clear();
  work_changed_.notify_all();
  return FailureOutcome::kRetryScheduled;
}

absl::StatusOr<int> InMemoryJobStore::RescueExpiredLeases() {
  std::lock_guard lock(mutex_);
  const TimePoint now = clock_.Now();
  int rescued = 0;
  for (Task& task : tasks_) {
    TaskInfo& info = task.info;
    if (info.state != TaskState::kRunning || !info.lease_expires_at || *info.lease_expires_at >= now) continue;
    info.last_error = "lease expired (held by " + info.lease_owner.value_or("?") + ")";
    info.lease_owner.reset();
    info.lease_expires_at.reset();
    task.token.clear();
    info.run_after = now;
    ++rescued;
    if (info.attempt >= info.max_attempts) {
      info.state = TaskState::kDead;
      SetState(*FindJob(info.job_id), JobState::kFailed, info.last_error);
    } else {
      info.state = TaskState::kAvailable;
    }
  }
  if (rescued > 0) work_changed_.notify_all();
  return rescued;
}

absl::StatusOr<std::vector<TaskInfo>> InMemoryJobStore::ListTasks(const std::string& job_id) {
  std::lock_guard lock(mutex_);
  std::vector<TaskInfo> tasks;
  for (const Task& task : tasks_) {
    if (task.info.job_id == job_id) tasks.push_back(task.info);
  }
  return tasks;
}

bool InMemoryJobStore::WaitForWork(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  const int64_t seen = next_order_;
  return work_changed_.wait_for(lock, timeout, [&] { return next_order_ != seen; });
}

absl::Status InMemoryJobStore::RegisterWorker(const WorkerInfo& worker) {
  std::lock_guard lock(mutex_);
  WorkerInfo& stored = workers_[worker.id] = worker;
  stored.last_seen = clock_.Now();
  return absl::OkStatus();
}

absl::Status InMemoryJobStore::WorkerHeartbeat(const std::string& worker_id) {
  std::lock_guard lock(mutex_);
  auto it = workers_.find(worker_id);
  if (it == workers_.end()) return absl::NotFoundError("worker " + worker_id + " is not registered");
  it->second.last_seen = clock_.Now();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<WorkerInfo>> InMemoryJobStore::ListWorkers() {
  std::lock_guard lock(mutex_);
  std::vector<WorkerInfo> workers;
  for (const auto& [id, worker] : workers_) workers.push_back(worker);
  return workers;
}

absl::Status InMemoryJobStore::AttachArtifact(const std::string& job_id, const ArtifactRef& artifact) {
  std::lock_guard lock(mutex_);
  if (FindJob(job_id) == nullptr) return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
  artifacts_[job_id][artifact.role] = artifact;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ArtifactRef>> InMemoryJobStore::ListArtifacts(const std::string& job_id) {
  std::lock_guard lock(mutex_);
  std::vector<ArtifactRef> refs;
  for (const auto& [role, ref] : artifacts_[job_id]) refs.push_back(ref);  // ordered by role
  return refs;
}

absl::StatusOr<std::set<std::string>> InMemoryJobStore::ListReferencedArtifactDigests() {
  std::lock_guard lock(mutex_);
  std::set<std::string> digests;
  for (const auto& [job, roles] : artifacts_) {
    for (const auto& [role, ref] : roles) digests.insert(ref.digest);
  }
  return digests;
}

absl::Status InMemoryJobStore::StoreReport(const std::string& job_id, const report::Report& typed) {
  json report = report::ToJson(typed);
  std::lock_guard lock(mutex_);
  if (FindJob(job_id) == nullptr) return absl::NotFoundError(absl::StrCat("job ", job_id, " not found"));
  report.erase("job_id");
  json& document = reports_[job_id];
  if (!document.is_object()) document = json::object();
  for (auto& [section, value] : report.items()) document[section] = value;
  return absl::OkStatus();
}

absl::StatusOr<std::string> InMemoryJobStore::GetReport(const std::string& job_id) {
  std::lock_guard lock(mutex_);
  auto it = reports_.find(job_id);
  if (it == reports_.end()) return absl::NotFoundError("no report for job " + job_id);
  json document = it->second;
  document["job_id"] = job_id;
  return document.dump();
}

absl::StatusOr<std::vector<FindingRow>> InMemoryJobStore::ListFindings(const std::string& job_id,
                                                                       const FindingFilter& filter) {
  std::lock_guard lock(mutex_);
  std::vector<FindingRow> rows;
  auto it = reports_.find(job_id);
  if (it == reports_.end() || !it->second.contains("findings")) return rows;
  absl::StatusOr<report::Report> typed = report::ReportFromJson(it->second);
  if (!typed.ok()) return typed.status();
  for (const report::Finding& f : typed->findings.value_or(std::vector<report::Finding>{})) {
    const std::string severity(report::SeverityName(f.severity));
    if ((filter.rule_id && f.rule_id != *filter.rule_id) || (filter.path && f.path != *filter.path) ||
        (filter.severity && severity != *filter.severity)) {
      continue;
    }
    rows.push_back({f.rule_id, severity, f.path, f.line, f.column, f.message, f.fix, f.auto_fixed});
  }
  return rows;
}

absl::StatusOr<std::map<std::string, int64_t>> InMemoryJobStore::CountFindingsByRule(const std::string& job_id) {
  absl::StatusOr<std::vector<FindingRow>> rows = ListFindings(job_id, {});
  if (!rows.ok()) return rows.status();
  std::map<std::string, int64_t> counts;
  for (const FindingRow& row : *rows) counts[row.rule_id]++;
  return counts;
}

absl::StatusOr<std::vector<FileResultRow>> InMemoryJobStore::ListFileResults(const std::string& job_id) {
  std::lock_guard lock(mutex_);
  std::vector<FileResultRow> rows;
  auto it = reports_.find(job_id);
  if (it == reports_.end() || !it->second.contains("translation")) return rows;
  absl::StatusOr<report::Report> typed = report::ReportFromJson(it->second);
  if (!typed.ok()) return typed.status();
  for (const report::FileEntry& f : typed->translation->files) {
    rows.push_back({f.path, std::string(report::FileStatusName(f.status)), f.fallback_reason, f.unconverted,
                    f.unsupported, f.lines_changed});
  }
  return rows;
}

}  // namespace hipforge::server::testing
