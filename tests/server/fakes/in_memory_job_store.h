#pragma once
// JobStore in memory, for unit tests of the job and task services without PostgreSQL. It keeps the contract of
// job_store.h (state machine, one lease holder, duplicate/late completions, retries with backoff, dead letters,
// cancel, per-section report merge) so service logic tested against it holds against PostgresJobStore, whose own
// tests (tests/server/store) run the same scenarios against a real PostgreSQL. Not modelled: toolchain routing of
// validate tasks (LeaseRequest::toolchains_json is ignored; capabilities still gate a lease), which only the
// PostgreSQL lease query implements (TaskQueueTest covers it).
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/clock.h"
#include "server/store/job_store.h"

namespace hipforge::server::testing {

struct InMemoryStoreOptions {
  int default_max_attempts = 3;
  std::chrono::milliseconds retry_backoff_base{std::chrono::seconds(2)};  // attempt n waits base * 2^(n-1)
};

class InMemoryJobStore final : public JobStore {
 public:
  explicit InMemoryJobStore(const Clock& clock, InMemoryStoreOptions options = {});

  absl::StatusOr<Job> CreateJob(const JobSpec& spec, const ArtifactRef& input) override;
  absl::StatusOr<Job> GetJob(const std::string& job_id) override;
  absl::StatusOr<ListJobsPage> ListJobs(const ListJobsRequest& request) override;
  absl::StatusOr<Job> GetTeamJob(const std::string& team, const std::string& job_id) override;
  absl::StatusOr<std::vector<std::string>> FindTeamJobIds(const std::string& team, const std::string& hex_prefix,
                                                          int limit) override;
  absl::StatusOr<Job> CancelJob(const std::string& job_id, const std::string& reason) override;
  absl::StatusOr<Job> CancelTeamJob(const std::string& team, const std::string& job_id,
                                    const std::string& reason) override;
  absl::StatusOr<int64_t> AppendEvent(const std::string& job_id, const std::string& kind,
                                      const std::string& payload_json) override;
  absl::StatusOr<std::vector<JobEvent>> ListEventsSince(const std::string& job_id, int64_t after_seq,
                                                        int limit) override;
  bool WaitForJobEvents(std::chrono::milliseconds timeout) override;
  absl::StatusOr<std::optional<LeasedTask>> LeaseTask(const LeaseRequest& request) override;
  absl::StatusOr<TimePoint> HeartbeatTask(const Lease& lease, std::chrono::milliseconds lease_duration) override;
  absl::StatusOr<CompletionOutcome> CompleteTask(const TaskCompletion& completion) override;
  absl::StatusOr<FailureOutcome> FailTask(const Lease& lease, const std::string& error) override;
  absl::StatusOr<FailureOutcome> GiveBackTask(const Lease& lease, const std::string& reason) override;
  absl::StatusOr<int> RescueExpiredLeases() override;
  absl::StatusOr<std::vector<TaskInfo>> ListTasks(const std::string& job_id) override;
  bool WaitForWork(std::chrono::milliseconds timeout) override;
  absl::Status RegisterWorker(const WorkerInfo& worker) override;
  absl::Status WorkerHeartbeat(const std::string& worker_id) override;
  absl::StatusOr<std::vector<WorkerInfo>> ListWorkers() override;
  absl::Status AttachArtifact(const std::string& job_id, const ArtifactRef& artifact) override;
  absl::StatusOr<std::vector<ArtifactRef>> ListArtifacts(const std::string& job_id) override;
  absl::StatusOr<std::set<std::string>> ListReferencedArtifactDigests() override;
  absl::Status StoreReport(const std::string& job_id, const report::Report& report) override;
  absl::StatusOr<std::string> GetReport(const std::string& job_id) override;
  absl::StatusOr<std::vector<FindingRow>> ListFindings(const std::string& job_id, const FindingFilter& filter) override;
  absl::StatusOr<std::map<std::string, int64_t>> CountFindingsByRule(const std::string& job_id) override;
  absl::StatusOr<std::vector<FileResultRow>> ListFileResults(const std::string& job_id) override;

 private:
  struct Task {
    TaskInfo info;
    std::string token;  // the running lease's
    int64_t order = 0;  // creation order
  };
  Job* FindJob(const std::string& job_id);                                // requires mutex_
  Job* FindTeamJob(const std::string& team, const std::string& job_id);   // requires mutex_; null for another team's
  absl::StatusOr<Job> CancelLocked(Job& job, const std::string& reason);  // requires mutex_
  Task* FindTask(const std::string& task_id);                             // requires mutex_
  Task* FindHeldTask(const Lease& lease);  // requires mutex_; null unless running under this lease
  void SetState(Job& job, JobState state, const std::string& error);  // requires mutex_; appends the event
  void Append(const std::string& job_id, const std::string& kind, const nlohmann::json& payload);
  void Enqueue(const Job& job, TaskKind kind, const std::string& hints_json);
  std::string NewId();

  const Clock& clock_;
  InMemoryStoreOptions options_;
  std::mutex mutex_;
  std::condition_variable events_changed_, work_changed_;
  int64_t next_id_ = 1, next_seq_ = 1, next_order_ = 1;
  std::map<std::string, Job> jobs_;
  std::map<std::pair<std::string, std::string>, std::string> submit_requests_;  // (team, request id) -> job
  std::vector<Task> tasks_;
  std::vector<JobEvent> events_;
  std::map<std::string, WorkerInfo> workers_;
  std::map<std::string, std::map<std::string, ArtifactRef>> artifacts_;  // job -> role -> ref
  std::map<std::string, nlohmann::json> reports_;                        // job -> merged document
};

}  // namespace hipforge::server::testing
