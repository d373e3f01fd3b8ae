#pragma once
// The worker side of the server as domain logic: registration, leasing with long-poll on the
// store's notifications, heartbeats, inputs, progress, completion with artifacts, failure.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/report/report.h"
#include "server/auth/caller.h"
#include "server/service_limits.h"
#include "server/store/artifact_store.h"
#include "server/store/job_store.h"

namespace hipforge::server {

struct LeaseGrant {
  LeasedTask task;
  Job job;
  report::ValidateHints hints;  // validate tasks: what the translate step said (its payload's "hints")
};

struct HeartbeatOutcome {
  TimePoint lease_expires_at;
  bool cancel_requested = false;  // the job was cancelled: the task is dead, the worker must stop
};

struct InputDownload {
  std::string digest;
  std::unique_ptr<ArtifactReader> reader;
};

struct CompletionRequest {
  Lease lease;
  bool ok = true;
  std::string summary;
  std::optional<report::Report> report;  // this role's sections (docs/report.md); absent: none
  std::vector<ArtifactRef> artifacts;    // already stored through NewArtifactWriter
  report::ValidateHints validate_hints;  // translate tasks: passed on to the validate task
};

class TaskService {
 public:
  // The store interfaces it calls (job_store.h); the owner of a whole JobStore passes it for all of them.
  struct Stores {
    Stores(LeaseStore& leases, WorkerRegistry& workers, JobReadStore& jobs, EventStore& events)
        : leases(leases), workers(workers), jobs(jobs), events(events) {}
    Stores(JobStore& store) : Stores(store, store, store, store) {}  // NOLINT(google-explicit-constructor)
    LeaseStore& leases;
    WorkerRegistry& workers;
    JobReadStore& jobs;
    EventStore& events;
  };
  TaskService(Stores stores, ArtifactStore& artifacts, const Clock& clock, ServiceLimits limits);

  // `capability_tags` ("gpu:gfx90a", "target:gfx940", "gpu") are matched against a task's
  // required capabilities when this worker leases; `toolchains_json` (LeaseRequest::toolchains_json)
  // against a validate task's required toolchain.
  // `identity` is the caller's worker credential: the worker may register only roles it grants and
  // only toolchains it allows (every name in `toolchains`; PermissionDenied otherwise), and its id stays bound
  // to that credential.
  absl::Status RegisterWorker(const WorkerIdentity& identity, const WorkerInfo& worker,
                              std::vector<std::string> capability_tags,
                              const std::vector<std::string>& toolchains = {""}, std::string toolchains_json = "[]");
  // Waits up to `wait` (capped) for a task; nullopt when none came. `cancelled` ends the wait early.
  // PermissionDenied when the worker id was registered under another credential or a role is not granted.
  absl::StatusOr<std::optional<LeaseGrant>> Lease(const WorkerIdentity& identity, const std::string& worker_id,
                                                  const std::vector<TaskKind>& roles, std::chrono::milliseconds wait,
                                                  const std::function<bool()>& cancelled);
  // (Inside this class `Lease` names the method above: the lease type is spelled server::Lease.)
  // cancel_requested when the task's job (`lease.job_id`) was cancelled; FailedPrecondition when the lease
  // is no longer held for any other reason.
  absl::StatusOr<HeartbeatOutcome> Heartbeat(const server::Lease& lease);
  // The task's input: the submitted archive (translate) or the translated tree (validate); with
  // `original`, the submitted archive whatever the task.
  absl::StatusOr<InputDownload> OpenInput(const server::Lease& lease, bool original = false);
  // Appends worker progress events; FailedPrecondition when the lease is no longer held.
  absl::Status AppendProgress(const server::Lease& lease,
                              const std::vector<std::pair<std::string, std::string>>& events);
  // Checked before accepting artifact bytes so a late completion does not fill the disk.
  absl::Status CheckLease(const server::Lease& lease);
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> NewArtifactWriter();
  absl::StatusOr<CompletionOutcome> Complete(const CompletionRequest& request);
  // permanent: the job fails now (no retry).
  absl::StatusOr<FailureOutcome> Fail(const server::Lease& lease, const std::string& error, bool permanent);

  // The worker stops before the task is done: the task is leasable again at once, the attempt not counted.
  absl::StatusOr<FailureOutcome> GiveBack(const server::Lease& lease, const std::string& reason);

  const ServiceLimits& limits() const { return limits_; }

 private:
  Stores stores_;
  ArtifactStore& artifacts_;
  const Clock& clock_;
  ServiceLimits limits_;
  std::mutex capabilities_mutex_;
  std::map<std::string, std::vector<std::string>> capabilities_;   // by worker id
  std::map<std::string, std::vector<TaskKind>> registered_roles_;  // by worker id: a lease without roles uses them
  std::map<std::string, std::string> registered_credential_;       // by worker id: the credential that registered it
  std::map<std::string, std::string> toolchains_;                  // by worker id: LeaseRequest::toolchains_json
};

}  // namespace hipforge::server
