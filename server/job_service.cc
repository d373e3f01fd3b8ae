#include "server/job_service.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <random>
#include <type_traits>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/report/report_json.h"
#include "common/report/report_render.h"
#include "common/source_files.h"
#include "server/job_spec_checks.h"
#include "server/store/gate_definition.h"

namespace hipforge::server {
namespace {

namespace fs = std::filesystem;

std::string RandomName() {
  std::random_device device;
  return absl::StrCat(absl::Hex(device(), absl::kZeroPad8), absl::Hex(device(), absl::kZeroPad8));
}

std::string DetectMediaType(std::string_view head) {
  if (head.size() >= 4 && static_cast<unsigned char>(head[0]) == 0x28 && static_cast<unsigned char>(head[1]) == 0xb5 &&
      static_cast<unsigned char>(head[2]) == 0x2f && static_cast<unsigned char>(head[3]) == 0xfd) {
    return "application/x-tar+zstd";
  }
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b) {
    return "application/x-tar+gzip";
  }
  return "application/x-tar";
}

// Removes a directory tree when it goes out of scope.
struct ScopedDirectory {
  fs::path path;
  ~ScopedDirectory() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

absl::Status RequireScope(const Caller& caller, Scope scope, std::string_view action) {
  if (caller.Has(scope)) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat("token ", caller.token_id, " lacks the '",
                                                  std::string(ScopeName(scope)), "' scope needed to ",
                                                  std::string(action)));
}

bool IsFullJobId(const std::string& text) {
  if (text.size() != 36) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (text[i] == '-') || (!dash && !absl::ascii_isxdigit(static_cast<unsigned char>(text[i])))) return false;
  }
  return true;
}

// The hex digits of a job id prefix, lowercased: the start of an id as printed (dashes where the id has them)
// or the same without dashes. nullopt for any other text.
std::optional<std::string> HexPrefixOf(const std::string& text) {
  if (text.empty() || text.size() > 36) return std::nullopt;
  const bool dashed = text.find('-') != std::string::npos;
  std::string hex;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool dash_here = dashed && (i == 8 || i == 13 || i == 18 || i == 23);
    if (dash_here != (text[i] == '-')) return std::nullopt;
    if (dash_here) continue;
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    hex += absl::ascii_tolower(static_cast<unsigned char>(text[i]));
  }
  if (hex.size() > 32) return std::nullopt;
  return hex;
}

// What the upload's hipforge.yaml says, onto the spec: without --target its targets (a label says where they came
// from; without either the job is translated only, and its verdict says so), and its gate definition as the
// reserved label job_summary reads. Read at every submit, since the gate applies to translate-only jobs too.
absl::Status ApplyRepositorySettings(const JobService::RepositorySettingsReader& read, const fs::path& tree,
                                     JobSpec& spec) {
  if (!read) return absl::OkStatus();
  absl::StatusOr<JobService::RepositorySettings> settings = read(tree);
  if (!settings.ok()) return absl::InvalidArgumentError(absl::StrCat("hipforge.yaml: ", settings.status().message()));
  if (settings->gate) {
    absl::StatusOr<std::vector<std::string>> gate = ParseGateConditions(*settings->gate, "hipforge.yaml: gate");
    if (!gate.ok()) return gate.status();
    spec.labels[kGateLabel] = absl::StrJoin(*gate, ",");
  }
  if (!spec.validate || !spec.targets.empty()) return absl::OkStatus();
  for (const std::string& target : settings->targets) {
    if (!IsTargetName(target)) {
      return absl::InvalidArgumentError(absl::StrCat("hipforge.yaml: target '", target,
                                                     "' is not a GPU target "
                                                     "like gfx90a, gfx942 or sm_90"));
    }
  }
  if (!settings->targets.empty()) {
    spec.targets = settings->targets;
    spec.labels["hipforge.targets"] = "hipforge.yaml";
  }
  return absl::OkStatus();
}

}  // namespace

JobService::JobService(Stores stores, ArtifactStore& artifacts, const Clock& clock, ServiceLimits limits,
                       fs::path scratch_dir, AuditTrail* audit, RepositorySettingsReader repository_settings)
    : stores_(stores),
      artifacts_(artifacts),
      clock_(clock),
      limits_(limits),
      scratch_dir_(std::move(scratch_dir)),
      audit_(audit),
      repository_settings_(std::move(repository_settings)) {}

// Records the outcome of `action` on `target` (when there is an audit trail) and passes it on.
template <typename T>
T JobService::Audited(const Caller& caller, std::string_view action, const std::string& target, T outcome) {
  if (audit_ != nullptr) {
    absl::Status status;
    if constexpr (std::is_same_v<T, absl::Status>) {
      status = outcome;
    } else {
      status = outcome.status();
    }
    audit_->Record(caller, action, target, status);
  }
  return outcome;
}

absl::StatusOr<Job> JobService::Submit(const Caller& caller, JobSpec spec, const ArchiveChunkSource& upload) {
  absl::StatusOr<Job> job = SubmitUnaudited(caller, std::move(spec), upload);
  return Audited(caller, "submit", job.ok() ? job->id : std::string(), std::move(job));
}

absl::StatusOr<Job> JobService::SubmitUnaudited(const Caller& caller, JobSpec spec, const ArchiveChunkSource& upload) {
  if (absl::Status allowed = RequireScope(caller, Scope::kSubmit, "submit jobs"); !allowed.ok()) return allowed;
  // Decide everything about the spec before a byte of the upload is stored (sizes and characters
  // first, so a refusal below never quotes an oversized or control-character team name).
  if (absl::Status status = CheckJobSpec(spec, limits_.spec); !status.ok()) return status;
  if (!spec.team.empty() && spec.team != caller.team) {
    return absl::PermissionDeniedError(absl::StrCat("token ", caller.token_id, " belongs to team '", caller.team,
                                                    "' and cannot submit for team '", spec.team, "'"));
  }
  spec.team = caller.team;
  absl::StatusOr<std::unique_ptr<ArtifactWriter>> writer =
      artifacts_.NewWriter(static_cast<int64_t>(limits_.upload.max_compressed_bytes));
  if (!writer.ok()) return writer.status();
  std::string head;
  // Every byte the extractor sees is also stored, so what workers get is exactly what was checked.
  absl::Status upload_error;  // the first error of the upload stream, whoever read it
  ArchiveChunkSource tee = [&]() -> absl::StatusOr<std::string_view> {
    absl::StatusOr<std::string_view> chunk = upload();
    if (!chunk.ok() && upload_error.ok()) upload_error = chunk.status();
    if (!chunk.ok() || chunk->empty()) return chunk;
    if (head.size() < 8) head.append(chunk->substr(0, 8 - head.size()));
    if (absl::Status appended = (*writer)->Append(*chunk); !appended.ok()) {
      return absl::ResourceExhaustedError(
          absl::StrCat("archive is larger than the limit of ", limits_.upload.max_compressed_bytes, " bytes"));
    }
    return chunk;
  };

  std::error_code ec;
  fs::create_directories(scratch_dir_, ec);
  ScopedDirectory check{scratch_dir_ / absl::StrCat("upload-", RandomName())};
  const fs::path tree = check.path / "tree";
  absl::StatusOr<ExtractResult> extracted = SafeExtract(tee, tree, limits_.upload);
  if (!extracted.ok()) {
    return absl::Status(extracted.status().code(),
                        absl::StrCat("repository archive rejected: ", extracted.status().message()));
  }
  // The tar end marker may come before the end of the compressed stream; store it all.
  for (;;) {
    absl::StatusOr<std::string_view> rest = tee();
    if (!rest.ok()) return rest.status();
    if (rest->empty()) break;
  }
  if (!upload_error.ok()) return upload_error;
  if (!TreeUsesCuda(tree)) {
    return absl::InvalidArgumentError(
        "repository has no CUDA code (no .cu/.cuh files and no C/C++ file using CUDA headers, APIs or "
        "kernels): nothing to migrate");
  }
  if (absl::Status applied = ApplyRepositorySettings(repository_settings_, tree, spec); !applied.ok()) return applied;
  spec.input_files = static_cast<int>(extracted->files);  // within limits_.upload.max_files
  absl::StatusOr<StoredArtifact> stored = (*writer)->Finish();
  if (!stored.ok()) return stored.status();
  ArtifactRef input{"input", stored->digest, stored->size_bytes, DetectMediaType(head)};
  absl::StatusOr<Job> job = stores_.submit.CreateJob(spec, input);
  if (job.ok()) {
    spdlog::info("[job={}] submitted by {}: name='{}' team='{}' {} files, {} bytes uncompressed, {} bytes archive",
                 job->id, caller.token_id, spec.name, spec.team, extracted->files, extracted->uncompressed_bytes,
                 stored->size_bytes);
  }
  return job;
}

absl::StatusOr<std::string> JobService::ResolveJobId(const Caller& caller, const std::string& id_or_prefix) {
  if (IsFullJobId(id_or_prefix)) return id_or_prefix;
  const std::optional<std::string> hex = HexPrefixOf(id_or_prefix);
  if (!hex) return absl::NotFoundError(absl::StrCat("no job ", id_or_prefix));
  constexpr size_t kMinPrefix = 8;  // what `migrate-cli list` and the dashboard show
  if (hex->size() < kMinPrefix) {
    return absl::InvalidArgumentError(absl::StrCat("job id '", id_or_prefix, "' is too short: give at least ",
                                                   kMinPrefix,
                                                   " characters of it (as `migrate-cli list` shows) or the full id"));
  }
  // Two rows tell a unique prefix from an ambiguous one.
  absl::StatusOr<std::vector<std::string>> ids = stores_.jobs.FindTeamJobIds(caller.team, *hex, 2);
  if (!ids.ok()) return ids.status();
  if (ids->empty()) return absl::NotFoundError(absl::StrCat("no job ", id_or_prefix));
  if (ids->size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "job id prefix '", id_or_prefix, "' is ambiguous: team '", caller.team, "' has several jobs starting with it (",
        absl::StrJoin(*ids, ", "), ", ...); give more characters or the full id"));
  }
  return ids->front();
}

absl::StatusOr<std::string> JobService::AllowedJobId(const Caller& caller, Scope scope, std::string_view action,
                                                     const std::string& id_or_prefix) {
  if (absl::Status allowed = RequireScope(caller, scope, action); !allowed.ok()) return allowed;
  return ResolveJobId(caller, id_or_prefix);
}

absl::StatusOr<JobDetails> JobService::GetJob(const Caller& caller, const std::string& id_or_prefix) {
  absl::StatusOr<std::string> resolved = AllowedJobId(caller, Scope::kRead, "read jobs", id_or_prefix);
  if (!resolved.ok()) return resolved.status();
  const std::string& job_id = *resolved;
  absl::StatusOr<Job> job = stores_.jobs.GetTeamJob(caller.team, job_id);
  if (!job.ok()) return job.status();
  JobDetails details;
  details.job = *std::move(job);
  absl::StatusOr<std::vector<ArtifactRef>> artifacts = stores_.artifact_refs.ListArtifacts(job_id);
  if (!artifacts.ok()) return artifacts.status();
  details.artifacts = *std::move(artifacts);
  for (const ArtifactRef& ref : details.artifacts) {
    if (ref.role == "input") details.input_bytes = ref.size_bytes;
  }
  absl::StatusOr<std::vector<TaskInfo>> tasks = stores_.jobs.ListTasks(job_id);
  if (!tasks.ok()) return tasks.status();
  // The most leases one task took (1: no retry); a sum made a translated-then-validated job read as retried.
  for (const TaskInfo& task : *tasks) details.attempts = std::max(details.attempts, task.attempt);
  // The progress counters are the report's (one definition: report::ComputeTotals); none before translation.
  if (absl::StatusOr<std::string> text = stores_.reports.GetReport(job_id); text.ok()) {
    if (absl::StatusOr<report::Report> parsed = report::ParseReport(*text); parsed.ok() && parsed->translation) {
      details.files_total = parsed->translation->totals.cuda_files;
      details.files_translated = parsed->translation->totals.cuda_files_translated;
    }
  }
  return details;
}

absl::StatusOr<ListJobsPage> JobService::ListJobs(const Caller& caller, ListJobsRequest request) {
  if (absl::Status allowed = RequireScope(caller, Scope::kRead, "list jobs"); !allowed.ok()) return allowed;
  if (request.team && !request.team->empty() && *request.team != caller.team) {
    return absl::PermissionDeniedError(absl::StrCat("token ", caller.token_id, " belongs to team '", caller.team,
                                                    "' and cannot list team '", *request.team, "'"));
  }
  request.team = caller.team;
  return stores_.jobs.ListJobs(request);
}

absl::Status JobService::Watch(const Caller& caller, const std::string& id_or_prefix, int64_t after_seq,
                               const std::function<bool(const JobEvent&)>& sink,
                               const std::function<bool()>& cancelled) {
  absl::StatusOr<std::string> resolved = AllowedJobId(caller, Scope::kRead, "watch jobs", id_or_prefix);
  if (!resolved.ok()) return resolved.status();
  const std::string& job_id = *resolved;
  // The job's team never changes, so the events of a job this team owns are this team's.
  if (absl::StatusOr<Job> job = stores_.jobs.GetTeamJob(caller.team, job_id); !job.ok()) return job.status();
  constexpr int kBatch = 500;
  int64_t seq = after_seq;
  auto deliver = [&](bool* more) -> absl::StatusOr<bool> {
    absl::StatusOr<std::vector<JobEvent>> events = stores_.events.ListEventsSince(job_id, seq, kBatch);
    if (!events.ok()) return events.status();
    for (const JobEvent& event : *events) {
      if (!sink(event)) return false;
      seq = event.seq;
    }
    *more = events->size() == kBatch;
    return true;
  };
  while (!cancelled()) {
    bool more = false;
    absl::StatusOr<bool> go_on = deliver(&more);
    if (!go_on.ok()) return go_on.status();
    if (!*go_on) return absl::OkStatus();
    if (more) continue;
    absl::StatusOr<Job> job = stores_.jobs.GetTeamJob(caller.team, job_id);
    if (!job.ok()) return job.status();
    if (IsTerminal(job->state)) {
      // Events appended between the last read and the final state change.
      do {
        go_on = deliver(&more);
        if (!go_on.ok()) return go_on.status();
      } while (*go_on && more);
      return absl::OkStatus();
    }
    stores_.events.WaitForJobEvents(limits_.watch_poll);
  }
  return absl::OkStatus();
}

absl::StatusOr<ReportSummary> JobService::GetReport(const Caller& caller, const std::string& id_or_prefix) {
  absl::StatusOr<std::string> job_id = AllowedJobId(caller, Scope::kRead, "read reports", id_or_prefix);
  if (!job_id.ok()) {
    return Audited(caller, "read", id_or_prefix + " report", absl::StatusOr<ReportSummary>(job_id.status()));
  }
  return Audited(caller, "read", *job_id + " report", GetReportUnaudited(caller, *job_id));
}

// `job_id` is resolved and the caller's scope checked (GetReport).
absl::StatusOr<ReportSummary> JobService::GetReportUnaudited(const Caller& caller, const std::string& job_id) {
  absl::StatusOr<Job> job = stores_.jobs.GetTeamJob(caller.team, job_id);
  if (!job.ok()) return job.status();
  absl::StatusOr<std::string> report = stores_.reports.GetReport(job_id);
  if (!report.ok()) {
    if (report.status().code() == absl::StatusCode::kNotFound) {
      return absl::NotFoundError(
          absl::StrCat("job ", job_id, " has no report yet (state ", std::string(JobStateName(job->state)), ")"));
    }
    return report.status();
  }
  ReportSummary summary;
  summary.job = *std::move(job);
  absl::StatusOr<report::ReportDocument> parsed = report::ParseReportDocument(*report);
  if (!parsed.ok()) {
    return absl::DataLossError(
        absl::StrCat("the stored report of job ", job_id, " cannot be read: ", parsed.status().message()));
  }
  summary.report = std::move(parsed->report);
  summary.gate = std::move(parsed->gate);
  const report::Report& typed = summary.report;
  if (typed.translation) {
    const report::TranslationTotals& totals = typed.translation->totals;
    summary.files = totals.files;
    summary.translated = totals.translated;
    summary.fallback = totals.fallback;
    summary.converted = totals.converted;
    summary.unsupported = totals.unsupported;
    summary.lines_changed = totals.lines_changed;
  }
  if (typed.findings) {
    const report::FindingCounts counts = report::CountFindings(*typed.findings);
    summary.fixed = counts.fixed;
    summary.inactive = counts.inactive;
    summary.errors = counts.left_errors;
    summary.warnings = counts.left_warnings;
    summary.notes = counts.left_notes;
  }
  for (const report::BuildResult& build : typed.builds.value_or(std::vector<report::BuildResult>{})) {
    (build.ok ? summary.builds_ok : summary.builds_failed)++;
  }
  for (const report::TestResult& test : typed.tests.value_or(std::vector<report::TestResult>{})) {
    summary.tests_passed += test.status == report::TestStatus::kPassed;
    summary.tests_failed += report::IsMigrationFailure(test);  // as the verdict, the gate and JUnit count them
  }
  if (typed.effort) {
    summary.engineer_hours = typed.effort->engineer_hours;
    summary.automatic_share = typed.effort->automatic_share;
  }
  return summary;
}

absl::StatusOr<ArtifactDownload> JobService::OpenArtifact(const Caller& caller, const std::string& id_or_prefix,
                                                          const std::string& role) {
  absl::StatusOr<std::string> job_id = AllowedJobId(caller, Scope::kRead, "fetch artifacts", id_or_prefix);
  if (!job_id.ok()) {
    return Audited(caller, "read", id_or_prefix + " " + role, absl::StatusOr<ArtifactDownload>(job_id.status()));
  }
  return Audited(caller, "read", *job_id + " " + role, OpenArtifactUnaudited(caller, *job_id, role));
}

// `job_id` is resolved and the caller's scope checked (OpenArtifact).
absl::StatusOr<ArtifactDownload> JobService::OpenArtifactUnaudited(const Caller& caller, const std::string& job_id,
                                                                   const std::string& role) {
  absl::StatusOr<Job> job = stores_.jobs.GetTeamJob(caller.team, job_id);
  if (!job.ok()) return job.status();
  absl::StatusOr<std::vector<ArtifactRef>> refs = stores_.artifact_refs.ListArtifacts(job_id);
  if (!refs.ok()) return refs.status();
  const ArtifactRef* found = nullptr;
  for (const ArtifactRef& ref : *refs) {
    if (ref.role == role) found = &ref;  // the latest one wins
  }
  if (found == nullptr) {
    return absl::NotFoundError(absl::StrCat("job ", job_id, " has no ", role, " artifact (state ",
                                            std::string(JobStateName(job->state)), ")"));
  }
  absl::StatusOr<std::unique_ptr<ArtifactReader>> reader = artifacts_.Open(found->digest);
  if (!reader.ok()) return reader.status();
  return ArtifactDownload{*found, *std::move(reader)};
}

absl::StatusOr<Job> JobService::Cancel(const Caller& caller, const std::string& id_or_prefix,
                                       const std::string& reason) {
  absl::StatusOr<std::string> job_id = AllowedJobId(caller, Scope::kCancel, "cancel jobs", id_or_prefix);
  if (!job_id.ok()) return Audited(caller, "cancel", id_or_prefix, std::move(job_id).status());
  absl::StatusOr<Job> job =
      Audited(caller, "cancel", *job_id,
              stores_.submit.CancelTeamJob(caller.team, *job_id, reason.empty() ? "cancelled by user" : reason));
  if (job.ok()) spdlog::info("[job={}] cancelled by {}: {}", *job_id, caller.token_id, reason);
  return job;
}

absl::StatusOr<std::vector<AuditEvent>> JobService::ListAudit(const Caller& caller, int64_t before_seq, int limit) {
  if (!caller.Has(Scope::kAdmin)) {
    return absl::PermissionDeniedError(
        absl::StrCat("token ", caller.token_id, " lacks the 'admin' scope needed to read the audit trail"));
  }
  if (audit_ == nullptr) return absl::UnimplementedError("this server keeps no audit trail");
  return audit_->List(caller.team, before_seq, limit);
}

}  // namespace hipforge::server
