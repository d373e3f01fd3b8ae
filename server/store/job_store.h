#pragma once
// Persistence of jobs, tasks, events, artifacts references, workers and reports for migrate-server.
//
// The store is the single source of truth for the job state machine:
//
//   queued --(translate task leased)--> translating --(translate completed)--+
//     +-- validate requested and targets non-empty --> translated (validate task waiting)
//     |        --(validate task leased)--> validating --(validate completed)--> succeeded
//     +-- otherwise ---------------------------------------------------------> succeeded
//   any non-terminal state --(task dead after max attempts, or completion with job_failure)--> failed
//   any non-terminal state --(CancelJob)--> cancelled
//
// Every job state change appends a job event (kind "state") in the same transaction, so WatchJob
// can replay history with ListEventsSince and then wait with WaitForJobEvents.
//
// JSON-valued fields are carried as JSON text (std::string) so this header stays light; the store
// validates them and rejects malformed JSON with InvalidArgument.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/report/report.h"

namespace hipforge::server {

enum class JobState { kQueued, kTranslating, kTranslated, kValidating, kSucceeded, kFailed, kCancelled };
enum class TaskKind { kTranslate, kValidate };
// dead: out of attempts; cancelled: its job was cancelled while it was open.
enum class TaskState { kAvailable, kRunning, kCompleted, kFailed, kDead, kCancelled };

// Names as stored in the database ("queued", "translate", "available", ...).
std::string_view JobStateName(JobState state);
std::string_view TaskKindName(TaskKind kind);
std::optional<JobState> ParseJobState(std::string_view name);
std::optional<TaskKind> ParseTaskKind(std::string_view name);
std::optional<TaskState> ParseTaskState(std::string_view name);
bool IsTerminal(JobState state);  // succeeded, failed, cancelled

using TimePoint = std::chrono::system_clock::time_point;

struct JobSpec {
  std::string name;
  std::string team;
  std::map<std::string, std::string> labels;
  std::vector<std::string> targets;  // e.g. {"gfx90a", "gfx942"}
  std::string options_json = "{}";   // free-form JSON object, handed to workers in the task payload
  bool validate = true;              // a validate task runs only when this is true AND targets is non-empty
  // Capabilities a worker must advertise to lease this job's validate task (empty: any validate worker).
  std::vector<std::string> validate_capabilities;
  // Source identity (may be empty): jobs of one repository form its history on the dashboard.
  std::string repository;
  std::string branch;
  std::string commit;
  // Files in the submitted archive, counted by the server as it checks the upload (JobService::Submit; never a
  // client's number). 0: not counted (jobs submitted before migration 0014).
  int input_files = 0;
  // The client's id of this submission (SubmitHeader.request_id; empty: none). CreateJob with the id of a job of
  // the same team returns that job and stores nothing, so a submission sent again after its answer was lost is one
  // job. Written only: jobs read back leave it empty.
  std::string request_id;
};

struct Job {
  std::string id;  // uuid text
  JobSpec spec;
  JobState state = JobState::kQueued;
  std::string input_digest;   // sha256 hex of the submitted archive
  std::string error_message;  // set when failed or cancelled
  TimePoint created_at;
  TimePoint updated_at;
};

struct ArtifactRef {
  std::string role;    // "input", "translated_tree", "patch", "report", ...
  std::string digest;  // sha256 hex, as returned by ArtifactStore
  int64_t size_bytes = 0;
  std::string media_type;  // e.g. "application/x-tar+zstd", "text/x-diff"
};

struct JobEvent {
  int64_t seq = 0;  // global, strictly increasing; resume WatchJob with ListEventsSince(job, seq)
  std::string job_id;
  std::string kind;          // "state", "progress", "task_retry", ... ("state" payload: {"state":..,"error":..})
  std::string payload_json;  // JSON object
  TimePoint created_at;
};

struct ListJobsRequest {
  std::optional<std::string> team;
  std::optional<JobState> state;
  std::optional<std::pair<std::string, std::string>> label;  // key, value
  int page_size = 50;                                        // clamped to [1, 500]
  std::string page_token;  // empty: first page; otherwise ListJobsPage::next_page_token
};

struct ListJobsPage {
  std::vector<Job> jobs;        // newest first
  std::string next_page_token;  // empty when there are no more jobs
};

// One lease on a task: the task and its job, the worker holding it and the token LeaseTask handed out, passed back
// by every call the holder makes about the task. The store knows a lease by task_id and token alone (job_id and
// worker_id are the caller's word, for logs and for answering a cancelled job's heartbeat); worker_id may be empty
// where a call does not name the worker.
struct Lease {
  std::string job_id;
  std::string task_id;
  std::string worker_id;
  std::string token;
};

struct LeaseRequest {
  std::string worker_id;
  std::vector<TaskKind> roles;            // task kinds this worker runs
  std::vector<std::string> capabilities;  // a task is leasable if its required capabilities are a subset
  std::chrono::milliseconds lease_duration{std::chrono::seconds(60)};
  // The worker's toolchains, JSON [{"name", "hip_release", "archs": [..], "stand_in_archs": [..]}]: a
  // validate task goes to a worker one of whose toolchains has its targets and HIP release. "[]": the
  // worker registered none and is matched on `capabilities` alone.
  std::string toolchains_json = "[]";
  // How long a validate task waits for an exact toolchain before one with a stand-in arch may take it.
  std::chrono::milliseconds stand_in_after{std::chrono::seconds(60)};
};

struct LeasedTask {
  Lease lease;  // worker_id: LeaseRequest::worker_id; to be passed back to Heartbeat/Complete/Fail
  TaskKind kind = TaskKind::kTranslate;
  int attempt = 0;  // 1 on the first lease
  int max_attempts = 0;
  TimePoint lease_expires_at;
  // JSON object: {"input_digest":..,"targets":[..],"options":{..},"job_name":..,"team":..} and for validate tasks
  // also "translated_digest" (digest of the translated_tree artifact, when the translate task recorded one) and
  // "hints" (TaskCompletion::validate_hints_json of the translate task).
  std::string payload_json;
};

struct TaskCompletion {
  Lease lease;
  std::string result_json = "{}";
  std::optional<report::Report> report;  // merged into the job's report (see StoreReport)
  std::vector<ArtifactRef> artifacts;    // attached to the job
  // The task ran to completion but the job's outcome is a failure that a retry would not fix
  // (e.g. no CUDA sources, validation build failed): the job goes to failed with this message.
  std::optional<std::string> job_failure;
  // Translate tasks: a JSON object stored as "hints" in the payload of the validate task this completion
  // enqueues (report::ValidateHints; the store does not interpret it). Empty: none.
  std::string validate_hints_json;
};

enum class CompletionOutcome {
  kApplied,           // the completion was recorded and the job advanced
  kAlreadyCompleted,  // same task and token were already completed: nothing changed (duplicate)
  kLeaseLost,         // the lease expired and was rescued, the job was cancelled, or the token is wrong:
                      // nothing changed
};

enum class FailureOutcome { kRetryScheduled, kDeadLettered, kLeaseLost };

struct TaskInfo {
  std::string id;
  std::string job_id;
  TaskKind kind = TaskKind::kTranslate;
  TaskState state = TaskState::kAvailable;
  int attempt = 0;
  int max_attempts = 0;
  TimePoint run_after;
  std::optional<std::string> lease_owner;
  std::optional<TimePoint> lease_expires_at;
  std::vector<std::string> required_capabilities;
  std::string payload_json;
  std::string result_json;  // "null" until completed
  std::string last_error;
};

struct WorkerInfo {
  std::string id;
  std::vector<TaskKind> roles;
  std::string capabilities_json = "{}";  // e.g. {"gfx": ["gfx90a"], "toolchain": "hipcc 5.2.3"}
  TimePoint last_seen;
};

struct FindingFilter {
  std::optional<std::string> rule_id;
  std::optional<std::string> path;
  std::optional<std::string> severity;
};

struct FindingRow {
  std::string rule_id, severity, path;
  int line = 0, column = 0;
  std::string message, fix;
  bool auto_fixed = false;
};

struct FileResultRow {
  std::string path, status, fallback_reason;
  int unconverted = 0, unsupported = 0, lines_changed = 0;
};

// The store's interfaces, one per kind of consumer (as bb-storage keeps BlobAccess small): a consumer takes
// only the ones it calls, so its constructor says what it may do to the store. JobStore, the owner's handle
// (ServerApp, tests, benches), is all of them; PostgresJobStore and the in-memory fake implement it.

// Caller-side writes (JobService): a job is created with its input and translate task, or cancelled.
class SubmitStore {
 public:
  virtual ~SubmitStore() = default;
  // Creates the job in state queued, records the input artifact and enqueues its translate task, in
  // one transaction (the NOTIFY that wakes workers is sent on commit).
  virtual absl::StatusOr<Job> CreateJob(const JobSpec& spec, const ArtifactRef& input) = 0;
  // Moves a non-terminal job to cancelled and its open tasks to cancelled (their leases become
  // invalid). FailedPrecondition if the job already finished.
  virtual absl::StatusOr<Job> CancelJob(const std::string& job_id, const std::string& reason) = 0;
  // CancelJob for one team's job: NotFound (nothing changed) when the job belongs to another team.
  virtual absl::StatusOr<Job> CancelTeamJob(const std::string& team, const std::string& job_id,
                                            const std::string& reason) = 0;
};

// Reads of jobs and their tasks (JobService for callers, TaskService for workers).
class JobReadStore {
 public:
  virtual ~JobReadStore() = default;
  virtual absl::StatusOr<Job> GetJob(const std::string& job_id) = 0;  // NotFound when absent
  // Tenancy: the job only when it belongs to `team`; another team's job is NotFound, worded exactly
  // like an absent one (no existence oracle). Every caller-facing read and write starts here.
  virtual absl::StatusOr<Job> GetTeamJob(const std::string& team, const std::string& job_id) = 0;
  // Ids of `team`'s jobs that start with `hex_prefix` (1 to 32 lowercase hex digits, the id without its dashes),
  // in id order, at most `limit`: how JobService::ResolveJobId turns a short id into a job. InvalidArgument for
  // a prefix of another shape.
  virtual absl::StatusOr<std::vector<std::string>> FindTeamJobIds(const std::string& team,
                                                                  const std::string& hex_prefix, int limit) = 0;
  virtual absl::StatusOr<ListJobsPage> ListJobs(const ListJobsRequest& request) = 0;
  virtual absl::StatusOr<std::vector<TaskInfo>> ListTasks(const std::string& job_id) = 0;
};

// A job's event stream: workers append (TaskService), watchers replay and wait (JobService::Watch).
class EventStore {
 public:
  virtual ~EventStore() = default;
  virtual absl::StatusOr<int64_t> AppendEvent(const std::string& job_id, const std::string& kind,
                                              const std::string& payload_json) = 0;
  // Events with seq > after_seq, oldest first.
  virtual absl::StatusOr<std::vector<JobEvent>> ListEventsSince(const std::string& job_id, int64_t after_seq,
                                                                int limit = 1000) = 0;
  // Blocks until a new event for any job is appended (LISTEN/NOTIFY) or timeout; true if woken.
  // Callers re-check with ListEventsSince, so a spurious wake-up is harmless.
  virtual bool WaitForJobEvents(std::chrono::milliseconds timeout) = 0;
};

// The task queue's lease protocol (TaskService for workers, LeaseRescuer for expired leases).
class LeaseStore {
 public:
  virtual ~LeaseStore() = default;
  // Leases one available task the worker can run (ONE UPDATE ... FOR UPDATE SKIP LOCKED statement);
  // nullopt when there is none. Increments the task's attempt.
  virtual absl::StatusOr<std::optional<LeasedTask>> LeaseTask(const LeaseRequest& request) = 0;
  // Extends the lease when it is still held by this token; returns the new expiry, or
  // FailedPrecondition when the lease was lost (rescued, job cancelled, task finished).
  virtual absl::StatusOr<TimePoint> HeartbeatTask(const Lease& lease, std::chrono::milliseconds lease_duration) = 0;
  virtual absl::StatusOr<CompletionOutcome> CompleteTask(const TaskCompletion& completion) = 0;
  // A failed attempt: retried after exponential backoff (run_after), or dead-lettered (and the job
  // failed) when the task has used max_attempts.
  virtual absl::StatusOr<FailureOutcome> FailTask(const Lease& lease, const std::string& error) = 0;
  // The lease holder stops before the task is done (worker shutdown): the task is available again at
  // once and the attempt is not counted. kRetryScheduled, or kLeaseLost when the lease was not held.
  virtual absl::StatusOr<FailureOutcome> GiveBackTask(const Lease& lease, const std::string& reason) = 0;
  // Expired running tasks go back to available (their attempt already counted at lease time), or to
  // dead when out of attempts. Returns how many tasks were rescued or dead-lettered.
  virtual absl::StatusOr<int> RescueExpiredLeases() = 0;
  // Blocks until a task may have become available (LISTEN/NOTIFY) or timeout; true if woken.
  // Pattern: for (;;) { lease; if (got) break; WaitForWork(remaining); } — tasks whose backoff ends
  // do not notify, so waiters must use a bounded timeout.
  virtual bool WaitForWork(std::chrono::milliseconds timeout) = 0;
};

// Workers as the store knows them (TaskService registers them and records that they are alive).
class WorkerRegistry {
 public:
  virtual ~WorkerRegistry() = default;
  virtual absl::Status RegisterWorker(const WorkerInfo& worker) = 0;  // upsert, sets last_seen
  virtual absl::Status WorkerHeartbeat(const std::string& worker_id) = 0;
  virtual absl::StatusOr<std::vector<WorkerInfo>> ListWorkers() = 0;
};

// Which artifacts each job refers to (JobService opens them, the orphan collector keeps them).
class ArtifactRefStore {
 public:
  virtual ~ArtifactRefStore() = default;
  virtual absl::Status AttachArtifact(const std::string& job_id, const ArtifactRef& artifact) = 0;
  virtual absl::StatusOr<std::vector<ArtifactRef>> ListArtifacts(const std::string& job_id) = 0;
  // Every digest some job refers to (the orphan-artifact collector keeps these).
  virtual absl::StatusOr<std::set<std::string>> ListReferencedArtifactDigests() = 0;
};

// A job's report (JobService reads it; CompleteTask writes it with the completion).
class ReportStore {
 public:
  virtual ~ReportStore() = default;
  // The typed report (common/report/report.h, read from the wire by report_proto.h). Top-level sections present
  // in `report` replace the job's stored sections (translate and validate roles each contribute theirs);
  // queryable rows are rewritten for those sections. GetReport assembles the JSON from the tables (NotFound if
  // none), with the gate as job_summary judges it.
  virtual absl::Status StoreReport(const std::string& job_id, const report::Report& report) = 0;
  virtual absl::StatusOr<std::string> GetReport(const std::string& job_id) = 0;
  virtual absl::StatusOr<std::vector<FindingRow>> ListFindings(const std::string& job_id,
                                                               const FindingFilter& filter) = 0;
  virtual absl::StatusOr<std::map<std::string, int64_t>> CountFindingsByRule(const std::string& job_id) = 0;
  virtual absl::StatusOr<std::vector<FileResultRow>> ListFileResults(const std::string& job_id) = 0;
};

// The whole store: what its owner holds and hands out by the narrow interfaces above.
class JobStore : public SubmitStore,
                 public JobReadStore,
                 public EventStore,
                 public LeaseStore,
                 public WorkerRegistry,
                 public ArtifactRefStore,
                 public ReportStore {};

}  // namespace hipforge::server
