#pragma once
// The public side of the server as domain logic: accepting uploads, reading jobs, events, reports
// and artifacts, cancelling. gRPC handlers (grpc_migration_service.h) only translate to/from this.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "common/archive.h"
#include "common/clock.h"
#include "common/report/report.h"
#include "common/report/report_render.h"
#include "server/auth/audit_trail.h"
#include "server/auth/caller.h"
#include "server/service_limits.h"
#include "server/store/artifact_store.h"
#include "server/store/job_store.h"

namespace hipforge::server {

struct JobDetails {
  Job job;
  std::vector<ArtifactRef> artifacts;
  int64_t input_bytes = 0;
  int attempts = 0;          // the most attempts any one of the job's tasks took: 1 when nothing was retried
  int files_total = 0;       // the report's translation totals: cuda_files
  int files_translated = 0;  // cuda_files_translated
};

struct ReportSummary {
  Job job;
  report::Report report;             // the stored document, typed
  std::optional<report::Gate> gate;  // as job_summary judges it now (never stored)
  int files = 0, translated = 0, fallback = 0, converted = 0, unsupported = 0, lines_changed = 0;
  int fixed = 0;                            // findings fixed automatically
  int inactive = 0;                         // findings in code the build does not compile (not left)
  int errors = 0, warnings = 0, notes = 0;  // findings left for a person, by severity
  int builds_ok = 0, builds_failed = 0, tests_passed = 0, tests_failed = 0;
  double engineer_hours = 0, automatic_share = 0;
};

struct ArtifactDownload {
  ArtifactRef ref;
  std::unique_ptr<ArtifactReader> reader;
};

class JobService {
 public:
  // `scratch_dir` holds uploads being checked (one private directory per upload, removed after).
  // `audit` (may be null) records submissions, report/artifact reads, cancels and refusals.
  // What a repository's hipforge.yaml says about its jobs, read from an accepted upload: `targets:` (used when a
  // job to validate names none) and `gate:` (the conditions its migration gate requires, names as written).
  struct RepositorySettings {
    std::vector<std::string> targets;
    std::optional<std::vector<std::string>> gate;
  };
  using RepositorySettingsReader = std::function<absl::StatusOr<RepositorySettings>(const std::filesystem::path& tree)>;
  // The store interfaces it calls (job_store.h); the owner of a whole JobStore passes it for all of them.
  struct Stores {
    Stores(SubmitStore& submit, JobReadStore& jobs, EventStore& events, ReportStore& reports,
           ArtifactRefStore& artifact_refs)
        : submit(submit), jobs(jobs), events(events), reports(reports), artifact_refs(artifact_refs) {}
    Stores(JobStore& store) : Stores(store, store, store, store, store) {}  // NOLINT(google-explicit-constructor)
    SubmitStore& submit;
    JobReadStore& jobs;
    EventStore& events;
    ReportStore& reports;
    ArtifactRefStore& artifact_refs;
  };
  // `repository_settings` (may be empty): read at every submit.
  JobService(Stores stores, ArtifactStore& artifacts, const Clock& clock, ServiceLimits limits,
             std::filesystem::path scratch_dir, AuditTrail* audit = nullptr,
             RepositorySettingsReader repository_settings = {});

  // Every method takes the authenticated caller: the scope is checked here (PermissionDenied) and the
  // caller's team is a parameter of every store query, so another team's job reads as NotFound. The
  // gRPC handlers and the HTTP front end share these rules by calling only this class.
  //
  // Streams the upload through the hostile-archive extractor (limits, unsafe entries) while storing
  // it; the job is created only when the tree is acceptable and contains CUDA code. The job's team is
  // the caller's; a spec naming another team is refused.
  absl::StatusOr<Job> Submit(const Caller& caller, JobSpec spec, const ArchiveChunkSource& upload);
  // A job id as people type it: a full id is returned unchanged (no lookup); otherwise a prefix of at least
  // 8 hex digits of the id (as `migrate-cli list` and the dashboard show it; dashes optional) names the one
  // job of the caller's team that starts with it. InvalidArgument for a prefix that is too short or that
  // several of the team's jobs share (naming them); NotFound when none does, as for an unknown full id.
  // Every method below that takes a job id resolves it here first.
  absl::StatusOr<std::string> ResolveJobId(const Caller& caller, const std::string& id_or_prefix);
  absl::StatusOr<JobDetails> GetJob(const Caller& caller, const std::string& job_id);
  // request.team empty or the caller's own; another team's is refused.
  absl::StatusOr<ListJobsPage> ListJobs(const Caller& caller, ListJobsRequest request);
  // Calls `sink` for every event after `after_seq` until the job is final and all its events were
  // delivered; stops early (OK) when `sink` returns false or `cancelled()` becomes true.
  absl::Status Watch(const Caller& caller, const std::string& job_id, int64_t after_seq,
                     const std::function<bool(const JobEvent&)>& sink, const std::function<bool()>& cancelled);
  absl::StatusOr<ReportSummary> GetReport(const Caller& caller, const std::string& job_id);
  // role: "translated_tree" | "patch" | ...; NotFound when the job has none (yet).
  absl::StatusOr<ArtifactDownload> OpenArtifact(const Caller& caller, const std::string& job_id,
                                                const std::string& role);
  absl::StatusOr<Job> Cancel(const Caller& caller, const std::string& job_id, const std::string& reason);
  // The caller's team's audit trail, newest first; needs the admin scope.
  absl::StatusOr<std::vector<AuditEvent>> ListAudit(const Caller& caller, int64_t before_seq, int limit);

  const ServiceLimits& limits() const { return limits_; }

 private:
  Stores stores_;
  ArtifactStore& artifacts_;
  const Clock& clock_;
  ServiceLimits limits_;
  absl::StatusOr<Job> SubmitUnaudited(const Caller& caller, JobSpec spec, const ArchiveChunkSource& upload);
  // The scope check, then ResolveJobId.
  absl::StatusOr<std::string> AllowedJobId(const Caller& caller, Scope scope, std::string_view action,
                                           const std::string& id_or_prefix);
  absl::StatusOr<ReportSummary> GetReportUnaudited(const Caller& caller, const std::string& job_id);
  absl::StatusOr<ArtifactDownload> OpenArtifactUnaudited(const Caller& caller, const std::string& job_id,
                                                         const std::string& role);
  template <typename T>
  T Audited(const Caller& caller, std::string_view action, const std::string& target, T outcome);

  std::filesystem::path scratch_dir_;
  AuditTrail* audit_;
  RepositorySettingsReader repository_settings_;
};

}  // namespace hipforge::server
