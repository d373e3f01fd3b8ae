#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "common/report/report_proto.h"
#include "server/grpc_services.h"
#include "server/proto_convert.h"
#include "server/submit_stream.h"

namespace hipforge::server {
namespace {

// Streams an artifact reader as info + data chunks.
grpc::Status StreamArtifact(ArtifactReader& reader, const v1::ArtifactInfo& info, int64_t chunk_bytes,
                            grpc::ServerWriter<v1::ArtifactChunk>* writer) {
  v1::ArtifactChunk message;
  *message.mutable_info() = info;
  if (!writer->Write(message)) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
  for (;;) {
    absl::StatusOr<std::string> data = reader.Read(static_cast<size_t>(chunk_bytes));
    if (!data.ok()) return ToGrpc(data.status());
    if (data->empty()) return grpc::Status::OK;
    message.Clear();
    message.set_data(*std::move(data));
    if (!writer->Write(message)) return grpc::Status(grpc::StatusCode::CANCELLED, "client went away");
  }
}

// GetJob's and ListJobs' Job: the stored job with the counters JobService::GetJob derives.
void FillJobDetails(const JobDetails& details, v1::Job* response) {
  FillJob(details.job, response);
  response->set_input_bytes(details.input_bytes);
  response->set_attempts(details.attempts);
  response->set_files_total(details.files_total);
  response->set_files_translated(details.files_translated);
  for (const ArtifactRef& ref : details.artifacts) {
    if (ref.role != "input") response->add_artifact_kinds(ref.role);
  }
}

}  // namespace

grpc::Status GrpcMigrationService::Submit(grpc::ServerContext* context, grpc::ServerReader<v1::SubmitRequest>* reader,
                                          v1::Job* response) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  SubmitStream stream([reader](v1::SubmitRequest* message) { return reader->Read(message); },
                      [context] { return context->IsCancelled(); });
  absl::StatusOr<v1::SubmitHeader> header = stream.ReadHeader(jobs_.limits().upload.max_compressed_bytes);
  if (!header.ok()) return ToGrpc(header.status());
  absl::StatusOr<JobSpec> spec = FromProto(header->spec());
  if (!spec.ok()) return ToGrpc(spec.status());
  spec->request_id = header->request_id();
  absl::StatusOr<Job> job = jobs_.Submit(*caller, *spec, stream.Chunks());
  if (!job.ok()) {
    spdlog::warn("[job=-] submit rejected from {}: {}", context->peer(), job.status().ToString());
    return ToGrpc(job.status());
  }
  FillJob(*job, response);
  return grpc::Status::OK;
}

grpc::Status GrpcMigrationService::GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request,
                                          v1::Job* response) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  absl::StatusOr<JobDetails> details = jobs_.GetJob(*caller, request->job_id());
  if (!details.ok()) return ToGrpc(details.status());
  FillJobDetails(*details, response);
  return grpc::Status::OK;
}

grpc::Status GrpcMigrationService::WatchJob(grpc::ServerContext* context, const v1::WatchJobRequest* request,
                                            grpc::ServerWriter<v1::JobEvent>* writer) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  absl::Status status = jobs_.Watch(
      *caller, request->job_id(), request->after_sequence(),
      [writer](const JobEvent& event) { return writer->Write(ToProto(event)); },
      [context] { return context->IsCancelled(); });
  return ToGrpc(status);
}

grpc::Status GrpcMigrationService::ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest* request,
                                            v1::ListJobsResponse* response) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  ListJobsRequest query;
  if (!request->team().empty()) query.team = request->team();
  query.state = FromProto(request->state());
  if (!request->label().empty()) {
    const std::string& label = request->label();
    const size_t eq = label.find('=');
    if (eq == std::string::npos || eq == 0) {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "label filter must be key=value");
    }
    query.label = std::make_pair(label.substr(0, eq), label.substr(eq + 1));
  }
  if (request->page_size() < 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "page_size must not be negative");
  }
  query.page_size = request->page_size() == 0 ? 50 : std::min(request->page_size(), 500);
  query.page_token = request->page_token();
  absl::StatusOr<ListJobsPage> page = jobs_.ListJobs(*caller, query);
  if (!page.ok()) return ToGrpc(page.status());
  // Each job as GetJob answers it: a listed job's counters are the same numbers `status` shows, not zeros.
  for (const Job& job : page->jobs) {
    absl::StatusOr<JobDetails> details = jobs_.GetJob(*caller, job.id);
    if (!details.ok()) return ToGrpc(details.status());
    FillJobDetails(*details, response->add_jobs());
  }
  response->set_next_page_token(page->next_page_token);
  return grpc::Status::OK;
}

grpc::Status GrpcMigrationService::GetReport(grpc::ServerContext* context, const v1::GetReportRequest* request,
                                             v1::Report* response) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  absl::StatusOr<ReportSummary> report = jobs_.GetReport(*caller, request->job_id());
  if (!report.ok()) return ToGrpc(report.status());
  response->set_job_id(report->job.id);
  response->set_state(ToProto(report->job.state));
  *response->mutable_document() = report::ToProto(report->report, report->gate);
  v1::TranslationSummary* translation = response->mutable_translation();
  translation->set_files(report->files);
  translation->set_translated(report->translated);
  translation->set_fallback(report->fallback);
  translation->set_converted(report->converted);
  translation->set_unsupported(report->unsupported);
  translation->set_lines_changed(report->lines_changed);
  response->set_findings_errors(report->errors);
  response->set_findings_warnings(report->warnings);
  response->set_findings_notes(report->notes);
  response->set_findings_fixed(report->fixed);
  response->set_findings_inactive(report->inactive);
  response->set_builds_ok(report->builds_ok);
  response->set_builds_failed(report->builds_failed);
  response->set_tests_passed(report->tests_passed);
  response->set_tests_failed(report->tests_failed);
  response->set_engineer_hours(report->engineer_hours);
  response->set_automatic_share(report->automatic_share);
  return grpc::Status::OK;
}

grpc::Status GrpcMigrationService::FetchArtifact(grpc::ServerContext* context, const v1::FetchArtifactRequest* request,
                                                 grpc::ServerWriter<v1::ArtifactChunk>* writer) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  const v1::ArtifactKind kind =
      request->kind() == v1::ARTIFACT_KIND_UNSPECIFIED ? v1::ARTIFACT_KIND_TRANSLATED_TREE : request->kind();
  absl::StatusOr<ArtifactDownload> download = jobs_.OpenArtifact(*caller, request->job_id(), ArtifactRole(kind));
  if (!download.ok()) return ToGrpc(download.status());
  v1::ArtifactInfo info;
  info.set_kind(kind);
  info.set_sha256(download->ref.digest);
  info.set_size_bytes(download->ref.size_bytes);
  info.set_format(FormatOf(download->ref.media_type));
  return StreamArtifact(*download->reader, info, jobs_.limits().chunk_bytes, writer);
}

grpc::Status GrpcMigrationService::CancelJob(grpc::ServerContext* context, const v1::CancelJobRequest* request,
                                             v1::Job* response) {
  absl::StatusOr<Caller> caller = auth_.CallerOf(*context);
  if (!caller.ok()) return ToGrpc(caller.status());
  absl::StatusOr<Job> job = jobs_.Cancel(*caller, request->job_id(), request->reason());
  if (!job.ok()) return ToGrpc(job.status());
  FillJob(*job, response);
  return grpc::Status::OK;
}

}  // namespace hipforge::server
