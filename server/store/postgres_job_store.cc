#include "server/store/postgres_job_store.h"

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "absl/status/status.h"
#include "server/store/connection_pool.h"
#include "server/store/notification_listener.h"
#include "server/store/pooled_statement.h"
#include "server/store/postgres_reports.h"
#include "server/store/sql_catalog.h"
#include "spdlog/spdlog.h"

namespace hipforge::server {
namespace {

using nlohmann::json;

int64_t ToMicros(TimePoint time) {
  return std::chrono::duration_cast<std::chrono::microseconds>(time.time_since_epoch()).count();
}
TimePoint FromMicros(int64_t micros) {
  return TimePoint(std::chrono::duration_cast<TimePoint::duration>(std::chrono::microseconds(micros)));
}

bool IsUuid(const std::string& text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (text[i] == '-')) return false;
    if (!dash && !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

bool IsJsonObject(const std::string& text) {
  const json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return !parsed.is_discarded() && parsed.is_object();
}

std::string StringsToJson(const std::vector<std::string>& values) { return json(values).dump(); }

std::vector<std::string> JsonToStrings(const std::string& text) {
  const json parsed = json::parse(text, nullptr, false);
  std::vector<std::string> values;
  if (parsed.is_array()) {
    for (const auto& value : parsed) {
      if (value.is_string()) values.push_back(value.get<std::string>());
    }
  }
  return values;
}

std::string KindsToJson(const std::vector<TaskKind>& kinds) {
  json array = json::array();
  for (TaskKind kind : kinds) array.push_back(std::string(TaskKindName(kind)));
  return array.dump();
}

const char* NullOr(const std::optional<std::string>& value) { return value ? value->c_str() : nullptr; }

// Column order of insert_job / get_job / get_team_job / list_jobs.
constexpr pqxx::row::size_type kJobColumns = 17;

Job JobFromRow(const pqxx::row& row) {
  // pqxx does not bound-check row[i]: a query that lost a column would read past the row.
  if (row.size() < kJobColumns) {
    throw std::logic_error("job query returned " + std::to_string(row.size()) + " columns, want " +
                           std::to_string(kJobColumns));
  }
  Job job;
  job.id = row[0].as<std::string>();
  job.spec.name = row[1].as<std::string>();
  job.spec.team = row[2].as<std::string>();
  const json labels = json::parse(row[3].as<std::string>(), nullptr, false);
  if (labels.is_object()) {
    for (const auto& [key, value] : labels.items()) {
      job.spec.labels[key] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  job.spec.targets = JsonToStrings(row[4].as<std::string>());
  job.spec.options_json = row[5].as<std::string>();
  job.spec.validate = row[6].as<bool>();
  job.spec.validate_capabilities = JsonToStrings(row[7].as<std::string>());
  job.state = ParseJobState(row[8].as<std::string>()).value_or(JobState::kFailed);
  job.input_digest = row[9].as<std::string>();
  job.error_message = row[10].as<std::string>();
  job.created_at = FromMicros(row[11].as<int64_t>());
  job.updated_at = FromMicros(row[12].as<int64_t>());
  // row[13] is seq (page tokens)
  job.spec.repository = row[14].as<std::string>();
  job.spec.branch = row[15].as<std::string>();
  job.spec.commit = row[16].as<std::string>();
  job.spec.input_files = row[17].as<int>();
  return job;
}

TaskInfo TaskFromRow(const pqxx::row& row) {
  TaskInfo task;
  task.id = row[0].as<std::string>();
  task.job_id = row[1].as<std::string>();
  task.kind = ParseTaskKind(row[2].as<std::string>()).value_or(TaskKind::kTranslate);
  task.state = ParseTaskState(row[3].as<std::string>()).value_or(TaskState::kDead);
  task.attempt = row[4].as<int>();
  task.max_attempts = row[5].as<int>();
  task.run_after = FromMicros(row[6].as<int64_t>());
  if (!row[7].is_null()) task.lease_owner = row[7].as<std::string>();
  if (!row[8].is_null()) task.lease_expires_at = FromMicros(row[8].as<int64_t>());
  task.required_capabilities = JsonToStrings(row[9].as<std::string>());
  task.payload_json = row[10].as<std::string>();
  task.result_json = row[11].as<std::string>();
  task.last_error = row[12].as<std::string>();
  return task;
}

class PostgresJobStore final : public JobStore {
 public:
  PostgresJobStore(const PostgresStoreOptions& options, const Clock& clock, std::map<std::string, std::string> queries,
                   std::unique_ptr<NotificationListener> listener)
      : options_(options),
        clock_(clock),
        pool_(options.database_url, options.schema, options.pool_size, std::move(queries)),
        listener_(std::move(listener)) {}

  absl::StatusOr<Job> CreateJob(const JobSpec& spec, const ArtifactRef& input) override {
    if (spec.name.empty()) return absl::InvalidArgumentError("job name is empty");
    if (!IsJsonObject(spec.options_json)) return absl::InvalidArgumentError("job options are not a JSON object");
    json labels = json::object();
    for (const auto& [key, value] : spec.labels) labels[key] = value;
    return InTransaction<Job>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Job> {
      const int64_t now = NowMicros();
      const auto rows =
          tx.exec_prepared("insert_job", spec.name, spec.team, labels.dump(), StringsToJson(spec.targets),
                           spec.options_json, spec.validate, StringsToJson(spec.validate_capabilities), input.digest,
                           now, spec.repository, spec.branch, spec.commit, spec.input_files, spec.request_id);
      if (rows.empty()) {  // the same submission again: the job its first try made, nothing else stored
        return JobFromRow(tx.exec_prepared1("get_team_job_by_request", spec.team, spec.request_id));
      }
      Job job = JobFromRow(rows[0]);
      RecordArtifact(tx, input, now);
      ArtifactRef attached = input;
      attached.role = input.role.empty() ? "input" : input.role;
      tx.exec_prepared("attach_artifact", job.id, attached.role, attached.digest);
      tx.exec_prepared("enqueue_task", job.id, std::string(TaskKindName(TaskKind::kTranslate)),
                       options_.default_max_attempts, now, std::string("[]"), nullptr, std::string());
      return job;
    });
  }

  absl::StatusOr<Job> GetJob(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<Job>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Job> {
      const auto rows = tx.exec_prepared("get_job", job_id);
      if (rows.empty()) return absl::NotFoundError("no job " + job_id);
      return JobFromRow(rows[0]);
    });
  }

  absl::StatusOr<Job> GetTeamJob(const std::string& team, const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<Job>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Job> {
      const auto rows = tx.exec_prepared("get_team_job", job_id, team);
      if (rows.empty()) return absl::NotFoundError("no job " + job_id);
      return JobFromRow(rows[0]);
    });
  }

  absl::StatusOr<std::vector<std::string>> FindTeamJobIds(const std::string& team, const std::string& hex_prefix,
                                                          int limit) override {
    if (hex_prefix.empty() || hex_prefix.size() > 32 ||
        hex_prefix.find_first_not_of("0123456789abcdef") != std::string::npos) {
      return absl::InvalidArgumentError("a job id prefix is 1 to 32 lowercase hex digits, got '" + hex_prefix + "'");
    }
    return InSingleStatement<std::vector<std::string>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<std::string>> {
          std::vector<std::string> ids;
          for (const auto& row : tx.exec_prepared("find_team_job_ids", team, hex_prefix, std::max(limit, 0))) {
            ids.push_back(row[0].as<std::string>());
          }
          return ids;
        });
  }

  absl::StatusOr<ListJobsPage> ListJobs(const ListJobsRequest& request) override {
    const int page_size = std::clamp(request.page_size, 1, 500);
    std::optional<std::string> before_seq;
    if (!request.page_token.empty()) {
      // The token is the seq of the last job on the previous page ("s" prefix keeps it opaque-ish).
      const std::string& token = request.page_token;
      if (token.size() < 2 || token[0] != 's' || token.find_first_not_of("0123456789", 1) != std::string::npos) {
        return absl::InvalidArgumentError("invalid page token");
      }
      before_seq = token.substr(1);
    }
    std::optional<std::string> state;
    if (request.state) state = std::string(JobStateName(*request.state));
    std::optional<std::string> label;
    if (request.label) label = json{{request.label->first, request.label->second}}.dump();
    return InSingleStatement<ListJobsPage>([&](pqxx::transaction_base& tx) -> absl::StatusOr<ListJobsPage> {
      // One row more than asked tells whether another page exists.
      const auto rows = tx.exec_prepared("list_jobs", NullOr(request.team), NullOr(state), NullOr(label),
                                         NullOr(before_seq), page_size + 1);
      ListJobsPage page;
      for (const auto& row : rows) {
        if (static_cast<int>(page.jobs.size()) == page_size) {
          page.next_page_token = "s" + std::to_string(rows[page_size - 1][13].as<int64_t>());
          break;
        }
        page.jobs.push_back(JobFromRow(row));
      }
      return page;
    });
  }

  absl::StatusOr<Job> CancelJob(const std::string& job_id, const std::string& reason) override {
    return Cancel(std::nullopt, job_id, reason);
  }

  absl::StatusOr<Job> CancelTeamJob(const std::string& team, const std::string& job_id,
                                    const std::string& reason) override {
    return Cancel(team, job_id, reason);
  }

  absl::StatusOr<Job> Cancel(const std::optional<std::string>& team, const std::string& job_id,
                             const std::string& reason) {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InTransaction<Job>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Job> {
      // Another team's job: nothing is touched and the answer reads like an absent job.
      if (team && tx.exec_prepared("get_team_job", job_id, *team).empty()) {
        return absl::NotFoundError("no job " + job_id);
      }
      const int64_t now = NowMicros();
      const std::string message = reason.empty() ? "cancelled" : reason;
      // Tasks first, then the job: the store's lock order (see lease_task).
      tx.exec_prepared("kill_open_tasks", job_id, "job cancelled: " + message, now);
      const auto cancelled = tx.exec_prepared("cancel_job", job_id, message, now);
      const auto rows = tx.exec_prepared("get_job", job_id);
      if (rows.empty()) return absl::NotFoundError("no job " + job_id);
      Job job = JobFromRow(rows[0]);
      if (cancelled.empty()) {
        return absl::FailedPreconditionError("job " + job_id + " already " + std::string(JobStateName(job.state)));
      }
      return job;
    });
  }

  absl::StatusOr<int64_t> AppendEvent(const std::string& job_id, const std::string& kind,
                                      const std::string& payload_json) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    if (!IsJsonObject(payload_json)) return absl::InvalidArgumentError("event payload is not a JSON object");
    return InSingleStatement<int64_t>([&](pqxx::transaction_base& tx) -> absl::StatusOr<int64_t> {
      return tx.exec_prepared1("append_event", job_id, kind, payload_json, NowMicros())[0].as<int64_t>();
    });
  }

  absl::StatusOr<std::vector<JobEvent>> ListEventsSince(const std::string& job_id, int64_t after_seq,
                                                        int limit) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<std::vector<JobEvent>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<JobEvent>> {
          std::vector<JobEvent> events;
          for (const auto& row : tx.exec_prepared("list_events_since", job_id, after_seq, std::max(limit, 1))) {
            JobEvent event;
            event.seq = row[0].as<int64_t>();
            event.job_id = row[1].as<std::string>();
            event.kind = row[2].as<std::string>();
            event.payload_json = row[3].as<std::string>();
            event.created_at = FromMicros(row[4].as<int64_t>());
            events.push_back(std::move(event));
          }
          return events;
        });
  }

  bool WaitForJobEvents(std::chrono::milliseconds timeout) override {
    return listener_->Wait(NotificationListener::Channel::kEvents, timeout);
  }

  absl::StatusOr<std::optional<LeasedTask>> LeaseTask(const LeaseRequest& request) override {
    if (request.worker_id.empty()) return absl::InvalidArgumentError("worker id is empty");
    if (request.lease_duration.count() <= 0) return absl::InvalidArgumentError("lease duration must be positive");
    using Result = std::optional<LeasedTask>;
    return InSingleStatement<Result>([&](pqxx::transaction_base& tx) -> absl::StatusOr<Result> {
      const auto rows = tx.exec_prepared("lease_task", request.worker_id, KindsToJson(request.roles),
                                         StringsToJson(request.capabilities), NowMicros(),
                                         static_cast<int64_t>(request.lease_duration.count()), request.toolchains_json,
                                         static_cast<int64_t>(request.stand_in_after.count()));
      if (rows.empty()) return Result();
      const auto& row = rows[0];
      LeasedTask task;
      task.lease.task_id = row[0].as<std::string>();
      task.lease.job_id = row[1].as<std::string>();
      task.lease.worker_id = request.worker_id;
      task.kind = ParseTaskKind(row[2].as<std::string>()).value_or(TaskKind::kTranslate);
      task.attempt = row[3].as<int>();
      task.max_attempts = row[4].as<int>();
      task.lease.token = row[5].as<std::string>();
      task.lease_expires_at = FromMicros(row[6].as<int64_t>());
      task.payload_json = row[7].as<std::string>();
      return Result(std::move(task));
    });
  }

  absl::StatusOr<TimePoint> HeartbeatTask(const Lease& lease, std::chrono::milliseconds lease_duration) override {
    if (!IsUuid(lease.task_id) || !IsUuid(lease.token)) return absl::FailedPreconditionError("lease lost");
    return InSingleStatement<TimePoint>([&](pqxx::transaction_base& tx) -> absl::StatusOr<TimePoint> {
      const auto rows = tx.exec_prepared("heartbeat_task", lease.task_id, lease.token, NowMicros(),
                                         static_cast<int64_t>(lease_duration.count()));
      if (rows.empty()) return absl::FailedPreconditionError("lease of task " + lease.task_id + " lost");
      return FromMicros(rows[0][0].as<int64_t>());
    });
  }

  absl::StatusOr<CompletionOutcome> CompleteTask(const TaskCompletion& completion) override {
    if (!IsUuid(completion.lease.task_id) || !IsUuid(completion.lease.token)) return CompletionOutcome::kLeaseLost;
    if (!json::accept(completion.result_json)) return absl::InvalidArgumentError("task result is not JSON");
    if (!completion.validate_hints_json.empty() && !IsJsonObject(completion.validate_hints_json)) {
      return absl::InvalidArgumentError("validate hints are not a JSON object");
    }
    return InTransaction<CompletionOutcome>([&](pqxx::transaction_base& tx) -> absl::StatusOr<CompletionOutcome> {
      const int64_t now = NowMicros();
      const auto done = tx.exec_prepared("complete_task", completion.lease.task_id, completion.lease.token,
                                         completion.result_json, now);
      if (done.empty()) return ClassifyRejectedCompletion(tx, completion);
      const std::string job_id = done[0][0].as<std::string>();
      const auto kind = ParseTaskKind(done[0][1].as<std::string>()).value_or(TaskKind::kTranslate);
      const auto job = tx.exec_prepared1("lock_job", job_id);
      for (const auto& artifact : completion.artifacts) {
        RecordArtifact(tx, artifact, now);
        tx.exec_prepared("attach_artifact", job_id, artifact.role, artifact.digest);
      }
      if (completion.report) {
        if (auto status = reports::Store(tx, job_id, *completion.report, now); !status.ok()) return status;
      }
      AppendTaskEvent(tx, job_id, kind, "completed", now);
      const auto job_state = ParseJobState(job[0].as<std::string>()).value_or(JobState::kFailed);
      if (IsTerminal(job_state)) return CompletionOutcome::kApplied;  // e.g. cancelled meanwhile
      if (completion.job_failure) {
        tx.exec_prepared("set_job_state", job_id, "failed", *completion.job_failure, now);
      } else if (kind == TaskKind::kTranslate && job[1].as<bool>() && job[2].as<int>() > 0) {
        tx.exec_prepared("set_job_state", job_id, "translated", "", now);
        // Targets of two platforms (gfx and sm_): one validate task each, for each platform's pool.
        std::vector<std::string> platforms;
        for (const auto& row : tx.exec_prepared("job_platforms", job_id)) platforms.push_back(row[0].as<std::string>());
        if (platforms.size() < 2) platforms = {""};
        for (const std::string& platform : platforms) {
          tx.exec_prepared("enqueue_task", job_id, std::string(TaskKindName(TaskKind::kValidate)),
                           options_.default_max_attempts, now, job[3].as<std::string>(),
                           completion.validate_hints_json.empty() ? nullptr : completion.validate_hints_json.c_str(),
                           platform);
        }
      } else if (tx.exec_prepared1("open_sibling_tasks", job_id, completion.lease.task_id)[0].as<int64_t>() == 0) {
        tx.exec_prepared("set_job_state", job_id, "succeeded", "", now);
      }  // else another platform's validate task is still to finish: the job stays validating
      return CompletionOutcome::kApplied;
    });
  }

  absl::StatusOr<FailureOutcome> FailTask(const Lease& lease, const std::string& error) override {
    if (!IsUuid(lease.task_id) || !IsUuid(lease.token)) return FailureOutcome::kLeaseLost;
    return InTransaction<FailureOutcome>([&](pqxx::transaction_base& tx) -> absl::StatusOr<FailureOutcome> {
      const int64_t now = NowMicros();
      const auto rows = tx.exec_prepared("fail_task", lease.task_id, lease.token, error, now,
                                         static_cast<int64_t>(options_.retry_backoff_base.count()),
                                         static_cast<int64_t>(options_.retry_backoff_max.count()));
      if (rows.empty()) return FailureOutcome::kLeaseLost;
      const std::string job_id = rows[0][0].as<std::string>();
      const auto kind = ParseTaskKind(rows[0][1].as<std::string>()).value_or(TaskKind::kTranslate);
      const bool dead = rows[0][2].as<std::string>() == "dead";
      AfterTaskStopped(tx, job_id, kind, dead, error, now);
      return dead ? FailureOutcome::kDeadLettered : FailureOutcome::kRetryScheduled;
    });
  }

  absl::StatusOr<FailureOutcome> GiveBackTask(const Lease& lease, const std::string& reason) override {
    if (!IsUuid(lease.task_id) || !IsUuid(lease.token)) return FailureOutcome::kLeaseLost;
    return InTransaction<FailureOutcome>([&](pqxx::transaction_base& tx) -> absl::StatusOr<FailureOutcome> {
      const int64_t now = NowMicros();
      const auto rows = tx.exec_prepared("give_back_task", lease.task_id, lease.token, reason, now);
      if (rows.empty()) return FailureOutcome::kLeaseLost;
      const auto kind = ParseTaskKind(rows[0][1].as<std::string>()).value_or(TaskKind::kTranslate);
      AppendTaskEvent(tx, rows[0][0].as<std::string>(), kind, "returned", now, reason);
      return FailureOutcome::kRetryScheduled;
    });
  }

  absl::StatusOr<int> RescueExpiredLeases() override {
    return InTransaction<int>([&](pqxx::transaction_base& tx) -> absl::StatusOr<int> {
      const int64_t now = NowMicros();
      const auto rows = tx.exec_prepared("rescue_expired_leases", now);
      for (const auto& row : rows) {
        const auto kind = ParseTaskKind(row[2].as<std::string>()).value_or(TaskKind::kTranslate);
        AfterTaskStopped(tx, row[1].as<std::string>(), kind, row[3].as<std::string>() == "dead",
                         row[4].as<std::string>(), now);
      }
      if (!rows.empty()) spdlog::info("store: rescued {} expired task lease(s)", rows.size());
      return static_cast<int>(rows.size());
    });
  }

  absl::StatusOr<std::vector<TaskInfo>> ListTasks(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<std::vector<TaskInfo>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<TaskInfo>> {
          std::vector<TaskInfo> tasks;
          for (const auto& row : tx.exec_prepared("list_tasks", job_id)) tasks.push_back(TaskFromRow(row));
          return tasks;
        });
  }

  bool WaitForWork(std::chrono::milliseconds timeout) override {
    return listener_->Wait(NotificationListener::Channel::kWork, timeout);
  }

  absl::Status RegisterWorker(const WorkerInfo& worker) override {
    if (worker.id.empty()) return absl::InvalidArgumentError("worker id is empty");
    if (!IsJsonObject(worker.capabilities_json)) {
      return absl::InvalidArgumentError("worker capabilities are not a JSON object");
    }
    return InSingleStatement<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             tx.exec_prepared("upsert_worker", worker.id, KindsToJson(worker.roles), worker.capabilities_json,
                              NowMicros());
             return true;
           })
        .status();
  }

  absl::Status WorkerHeartbeat(const std::string& worker_id) override {
    return InSingleStatement<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             if (tx.exec_prepared("touch_worker", worker_id, NowMicros()).affected_rows() == 0) {
               return absl::NotFoundError("unknown worker " + worker_id);
             }
             return true;
           })
        .status();
  }

  absl::StatusOr<std::vector<WorkerInfo>> ListWorkers() override {
    return InSingleStatement<std::vector<WorkerInfo>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<WorkerInfo>> {
          std::vector<WorkerInfo> workers;
          for (const auto& row : tx.exec_prepared("list_workers")) {
            WorkerInfo worker;
            worker.id = row[0].as<std::string>();
            for (const auto& role : JsonToStrings(row[1].as<std::string>())) {
              if (auto kind = ParseTaskKind(role)) worker.roles.push_back(*kind);
            }
            worker.capabilities_json = row[2].as<std::string>();
            worker.last_seen = FromMicros(row[3].as<int64_t>());
            workers.push_back(std::move(worker));
          }
          return workers;
        });
  }

  absl::Status AttachArtifact(const std::string& job_id, const ArtifactRef& artifact) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    if (artifact.role.empty()) return absl::InvalidArgumentError("artifact role is empty");
    return InTransaction<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             RecordArtifact(tx, artifact, NowMicros());
             tx.exec_prepared("attach_artifact", job_id, artifact.role, artifact.digest);
             return true;
           })
        .status();
  }

  absl::StatusOr<std::vector<ArtifactRef>> ListArtifacts(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<std::vector<ArtifactRef>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<ArtifactRef>> {
          std::vector<ArtifactRef> artifacts;
          for (const auto& row : tx.exec_prepared("list_artifacts", job_id)) {
            artifacts.push_back(
                {row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>(), row[3].as<std::string>()});
          }
          return artifacts;
        });
  }

  absl::StatusOr<std::set<std::string>> ListReferencedArtifactDigests() override {
    return InSingleStatement<std::set<std::string>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::set<std::string>> {
          std::set<std::string> digests;
          for (const auto& row : tx.exec_prepared("list_referenced_digests")) digests.insert(row[0].as<std::string>());
          return digests;
        });
  }

  absl::Status StoreReport(const std::string& job_id, const report::Report& report) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InTransaction<bool>([&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
             if (tx.exec_prepared("get_job", job_id).empty()) return absl::NotFoundError("no job " + job_id);
             if (auto status = reports::Store(tx, job_id, report, NowMicros()); !status.ok()) return status;
             return true;
           })
        .status();
  }

  absl::StatusOr<std::string> GetReport(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<std::string>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::string> { return reports::Get(tx, job_id); });
  }

  absl::StatusOr<std::vector<FindingRow>> ListFindings(const std::string& job_id,
                                                       const FindingFilter& filter) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    return InSingleStatement<std::vector<FindingRow>>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::vector<FindingRow>> {
          return reports::Findings(tx, job_id, filter);
        });
  }

  absl::StatusOr<std::map<std::string, int64_t>> CountFindingsByRule(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    using Counts = std::map<std::string, int64_t>;
    return InSingleStatement<Counts>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<Counts> { return reports::CountByRule(tx, job_id); });
  }

  absl::StatusOr<std::vector<FileResultRow>> ListFileResults(const std::string& job_id) override {
    if (!IsUuid(job_id)) return absl::NotFoundError("no job " + job_id);
    using Rows = std::vector<FileResultRow>;
    return InSingleStatement<Rows>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<Rows> { return reports::FileResults(tx, job_id); });
  }

 private:
  int64_t NowMicros() const { return ToMicros(clock_.Now()); }

  // Runs `body` in one transaction on a pooled connection; commits only when it returns OK.
  // Database errors become Status values at this boundary. A dead-lock, a serialization failure or a
  // connection that broke before COMMIT (e.g. a pooled connection outliving a database restart)
  // rolled everything back, so the body is run again, up to kAttempts times.
  template <typename T, typename Body>
  absl::StatusOr<T> InTransaction(Body&& body) {
    return Run<T, pqxx::work>(std::forward<Body>(body));
  }

  // For operations that are ONE statement (the lease, heartbeat, reads): autocommit saves the
  // BEGIN and COMMIT round trips; the statement is atomic on its own.
  template <typename T, typename Body>
  absl::StatusOr<T> InSingleStatement(Body&& body) {
    return Run<T, pqxx::nontransaction>(std::forward<Body>(body));
  }

  template <typename T, typename Transaction, typename Body>
  absl::StatusOr<T> Run(Body&& body) {
    return RunPooled<T, Transaction>(pool_, StatementPolicy{.store = "job store", .attempts = 3},
                                     std::forward<Body>(body));
  }

  void RecordArtifact(pqxx::transaction_base& tx, const ArtifactRef& artifact, int64_t now) {
    tx.exec_prepared("upsert_artifact", artifact.digest, artifact.size_bytes,
                     artifact.media_type.empty() ? std::string("application/octet-stream") : artifact.media_type, now);
  }

  void AppendTaskEvent(pqxx::transaction_base& tx, const std::string& job_id, TaskKind kind, const std::string& outcome,
                       int64_t now, const std::string& error = "") {
    json payload{{"task", std::string(TaskKindName(kind))}, {"outcome", outcome}};
    if (!error.empty()) payload["error"] = error;
    tx.exec_prepared("append_event", job_id, "task", payload.dump(), now);
  }

  // After a failed attempt or an expired lease: the job fails when the task is dead-lettered.
  void AfterTaskStopped(pqxx::transaction_base& tx, const std::string& job_id, TaskKind kind, bool dead,
                        const std::string& error, int64_t now) {
    AppendTaskEvent(tx, job_id, kind, dead ? "dead" : "retry", now, error);
    if (dead) {
      tx.exec_prepared("set_job_state", job_id, "failed",
                       std::string(TaskKindName(kind)) + " task failed after all attempts: " + error, now);
    }
  }

  CompletionOutcome ClassifyRejectedCompletion(pqxx::transaction_base& tx, const TaskCompletion& completion) {
    const auto rows = tx.exec_prepared("task_lease_state", completion.lease.task_id, completion.lease.token);
    if (!rows.empty() && rows[0][0].as<std::string>() == "completed" && rows[0][1].as<bool>()) {
      return CompletionOutcome::kAlreadyCompleted;
    }
    return CompletionOutcome::kLeaseLost;
  }

  const PostgresStoreOptions options_;
  const Clock& clock_;
  ConnectionPool pool_;
  std::unique_ptr<NotificationListener> listener_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<JobStore>> OpenPostgresJobStore(const PostgresStoreOptions& options,
                                                               const Clock& clock) {
  if (!IsValidSchemaName(options.schema)) return absl::InvalidArgumentError("invalid schema name: " + options.schema);
  if (options.default_max_attempts < 1) return absl::InvalidArgumentError("max attempts must be at least 1");
  if (options.apply_migrations) {
    auto applied = ApplyMigrations(options.database_url, options.schema);
    if (!applied.ok()) return applied.status();
  }
  auto queries = sql::NamedQueries();
  if (!queries.ok()) return queries.status();
  auto listener = NotificationListener::Start(options.database_url, options.schema);
  if (!listener.ok()) return listener.status();
  return std::unique_ptr<JobStore>(new PostgresJobStore(options, clock, std::move(*queries), std::move(*listener)));
}

}  // namespace hipforge::server
