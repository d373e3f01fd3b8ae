#include "client/lib/migration_client.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include "common/sha256.h"

namespace hipforge::client {
namespace fs = std::filesystem;
namespace v1 = hipforge::v1;

namespace {

constexpr int kMaxWatchReconnects = 30;

const absl::Status& StatusOf(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& result) {
  return result.status();
}

// With several servers (--server a,b): a call that fails UNAVAILABLE (its server died, or refused the connection)
// is made again; the channel's pick_first has moved on to the next server that accepts a connection by then.
// Twice per server, a short pause between: the first retry may still find every connection being set up. With
// one server nothing is repeated: its UNAVAILABLE is the answer (exit 2).
template <typename Call>
auto WithFailover(int servers, Call call) -> decltype(call()) {
  const int attempts = servers > 1 ? 2 * servers : 1;
  for (int attempt = 1;; ++attempt) {
    auto result = call();
    if (StatusOf(result).code() != absl::StatusCode::kUnavailable || attempt >= attempts) return result;
    std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
  }
}

fs::path SiblingTempPath(const fs::path& final_path) {
  std::random_device random;
  fs::path parent = final_path.parent_path().empty() ? fs::path(".") : final_path.parent_path();
  return parent / ("." + final_path.filename().string() + ".part-" + std::to_string(random()));
}

// Streams an artifact into a temporary file, then checks it against the header.
absl::StatusOr<fs::path> DownloadOnce(MigrationClient& client, const std::string& job_id, v1::ArtifactKind kind,
                                      const fs::path& temp_path) {
  std::ofstream file(temp_path, std::ios::binary | std::ios::trunc);
  if (!file) return absl::InternalError("cannot create " + temp_path.string());
  v1::ArtifactInfo info;
  absl::Status status = client.FetchArtifact(
      job_id, kind,
      [&](std::string_view chunk) {
        file.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        return file ? absl::OkStatus() : absl::InternalError("cannot write " + temp_path.string());
      },
      [&](const v1::ArtifactInfo& header) { info = header; });
  file.close();
  if (status.ok() && !file) status = absl::InternalError("cannot write " + temp_path.string());
  if (status.ok() && !info.sha256().empty()) {
    auto digest = Sha256HexOfFile(temp_path);
    if (!digest.ok()) {
      status = digest.status();
    } else if (*digest != info.sha256()) {
      status = absl::DataLossError("artifact checksum mismatch (expected " + info.sha256() + ", got " + *digest + ")");
    }
  }
  if (!status.ok()) {
    std::error_code ignored;
    fs::remove(temp_path, ignored);
    return status;
  }
  return temp_path;
}

// A download cut by its server's death starts again from the first byte on the next server.
absl::StatusOr<fs::path> DownloadToTempFile(MigrationClient& client, const std::string& job_id, v1::ArtifactKind kind,
                                            const fs::path& temp_path) {
  return WithFailover(client.server_count(), [&] { return DownloadOnce(client, job_id, kind, temp_path); });
}

}  // namespace

std::string ResolveServerAddress(const std::string& flag_value) {
  if (!flag_value.empty()) return flag_value;
  if (const char* env = std::getenv("MIGRATE_SERVER"); env != nullptr && *env != '\0') return env;
  return "localhost:50051";
}

absl::Status FromGrpcStatus(const grpc::Status& status, const std::string& context) {
  if (status.ok()) return absl::OkStatus();
  std::string message = context.empty() ? status.error_message() : context + ": " + status.error_message();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), message);
}

bool IsFinalState(v1::JobState state) {
  return state == v1::JOB_STATE_SUCCEEDED || state == v1::JOB_STATE_FAILED || state == v1::JOB_STATE_CANCELLED;
}

std::string JobStateName(v1::JobState state) {
  std::string name = v1::JobState_Name(state);
  constexpr std::string_view kPrefix = "JOB_STATE_";
  if (name.rfind(kPrefix, 0) == 0) name = name.substr(kPrefix.size());
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.empty() ? "unknown" : name;
}

absl::StatusOr<v1::JobState> ParseJobState(const std::string& name) {
  std::string upper = "JOB_STATE_" + name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  v1::JobState state;
  if (!v1::JobState_Parse(upper, &state) || state == v1::JOB_STATE_UNSPECIFIED) {
    return absl::InvalidArgumentError("unknown job state '" + name +
                                      "' (queued, translating, translated, validating, succeeded, failed, cancelled)");
  }
  return state;
}

MigrationClient::MigrationClient(std::unique_ptr<v1::MigrationService::StubInterface> stub, ClientOptions options,
                                 ProcessLauncher& launcher)
    : stub_(std::move(stub)),
      options_(std::move(options)),
      launcher_(launcher),
      server_count_(static_cast<int>(SplitServerList(options_.server).size())) {}

std::unique_ptr<MigrationClient> MigrationClient::Connect(const ClientOptions& options, ProcessLauncher& launcher) {
  grpc::ChannelArguments arguments;
  arguments.SetMaxReceiveMessageSize(64 << 20);
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(options.server, options.security, arguments);
  if (!channel.ok()) throw ConnectionSetupError(channel.status());
  return std::make_unique<MigrationClient>(v1::MigrationService::NewStub(*channel), options, launcher);
}

void MigrationClient::SetDeadline(grpc::ClientContext& context) const {
  context.set_deadline(std::chrono::system_clock::now() + options_.rpc_timeout);
}

std::string NewSubmitRequestId() {
  std::random_device random;
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(random()));
    id += word;
  }
  return id;
}

absl::StatusOr<v1::Job> MigrationClient::Submit(const fs::path& repository, const v1::JobSpec& spec,
                                                ArchiveCompression compression, const UploadProgressCallback& progress,
                                                const std::string& request_id) {
  // An upload cut by its server's death is packed and sent again, whole, to the next server, with the same
  // request id: if the first try's server stored the job before it died, the answer is that job.
  const std::string id = request_id.empty() ? NewSubmitRequestId() : request_id;
  return WithFailover(server_count_, [&] { return SubmitOnce(repository, spec, compression, progress, id); });
}

absl::StatusOr<v1::Job> MigrationClient::SubmitOnce(const fs::path& repository, const v1::JobSpec& spec,
                                                    ArchiveCompression compression,
                                                    const UploadProgressCallback& progress,
                                                    const std::string& request_id) {
  grpc::ClientContext context;
  v1::Job job;
  std::unique_ptr<grpc::ClientWriterInterface<v1::SubmitRequest>> writer = stub_->Submit(&context, &job);
  v1::SubmitRequest header;
  header.mutable_header()->mutable_spec()->CopyFrom(spec);
  header.mutable_header()->set_request_id(request_id);
  header.mutable_header()->set_format(compression == ArchiveCompression::kZstd ? v1::COMPRESSION_FORMAT_TAR_ZSTD
                                                                               : v1::COMPRESSION_FORMAT_TAR_GZIP);
  bool stream_open = writer->Write(header);
  PackOptions pack;
  pack.compression = compression;
  pack.chunk_bytes = options_.upload_chunk_bytes;
  absl::StatusOr<PackResult> packed = absl::UnavailableError("upload stream closed");
  if (stream_open) {
    v1::SubmitRequest chunk;
    packed = PackDirectory(
        repository, launcher_, pack,
        [&](std::string_view data) {
          chunk.set_chunk(data.data(), data.size());
          if (writer->Write(chunk)) return absl::OkStatus();
          // The server closed the stream (it rejected the upload or went away); Finish() below
          // carries the reason.
          stream_open = false;
          return absl::UnavailableError("upload stream closed");
        },
        progress);
  }
  if (stream_open && !packed.ok()) {
    // Packing failed here (unreadable file...): abandon the upload instead of letting the server
    // judge a truncated archive, and report our own error.
    context.TryCancel();
    writer->Finish();
    return packed.status();
  }
  writer->WritesDone();
  grpc::Status finished = writer->Finish();
  if (!finished.ok()) return FromGrpcStatus(finished, "submit");
  if (!packed.ok()) return packed.status();
  return job;
}

absl::StatusOr<v1::Job> MigrationClient::GetJob(const std::string& job_id) {
  return WithFailover(server_count_, [&]() -> absl::StatusOr<v1::Job> {
    grpc::ClientContext context;
    SetDeadline(context);
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    v1::Job job;
    grpc::Status status = stub_->GetJob(&context, request, &job);
    if (!status.ok()) return FromGrpcStatus(status, "get job " + job_id);
    return job;
  });
}

absl::StatusOr<v1::Job> MigrationClient::Watch(const std::string& job_id, const JobEventCallback& on_event,
                                               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::system_clock::now() + timeout;
  int64_t after_sequence = 0;
  int reconnects = 0;
  for (;;) {
    grpc::ClientContext context;
    context.set_deadline(deadline);
    v1::WatchJobRequest request;
    request.set_job_id(job_id);
    request.set_after_sequence(after_sequence);
    auto reader = stub_->WatchJob(&context, request);
    v1::JobEvent event;
    bool stopped_by_caller = false;
    while (reader->Read(&event)) {
      after_sequence = std::max(after_sequence, event.sequence());
      reconnects = 0;
      if (on_event && !on_event(event)) {
        stopped_by_caller = true;
        context.TryCancel();
        break;
      }
    }
    grpc::Status status = reader->Finish();
    if (stopped_by_caller) return GetJob(job_id);
    if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      return absl::DeadlineExceededError("job " + job_id + " did not finish in time");
    }
    if (status.ok() || status.error_code() == grpc::StatusCode::UNAVAILABLE) {
      auto job = GetJob(job_id);
      if (job.ok() && IsFinalState(job->state())) return job;
      if (!job.ok() && job.status().code() != absl::StatusCode::kUnavailable) return job.status();
      if (std::chrono::system_clock::now() >= deadline) {
        return absl::DeadlineExceededError("job " + job_id + " did not finish in time");
      }
      if (++reconnects > kMaxWatchReconnects) {
        return job.ok() ? absl::UnavailableError("watch stream keeps ending before job " + job_id + " finishes")
                        : job.status();
      }
      // The stream ended early (server restart, proxy timeout): resume after the last event.
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(200 * reconnects, 2000)));
      continue;
    }
    return FromGrpcStatus(status, "watch job " + job_id);
  }
}

absl::StatusOr<v1::ListJobsResponse> MigrationClient::ListJobs(const v1::ListJobsRequest& request) {
  return WithFailover(server_count_, [&]() -> absl::StatusOr<v1::ListJobsResponse> {
    grpc::ClientContext context;
    SetDeadline(context);
    v1::ListJobsResponse response;
    grpc::Status status = stub_->ListJobs(&context, request, &response);
    if (!status.ok()) return FromGrpcStatus(status, "list jobs");
    return response;
  });
}

absl::StatusOr<v1::Report> MigrationClient::GetReport(const std::string& job_id) {
  return WithFailover(server_count_, [&]() -> absl::StatusOr<v1::Report> {
    grpc::ClientContext context;
    SetDeadline(context);
    v1::GetReportRequest request;
    request.set_job_id(job_id);
    v1::Report report;
    grpc::Status status = stub_->GetReport(&context, request, &report);
    if (!status.ok()) return FromGrpcStatus(status, "get report of " + job_id);
    return report;
  });
}

absl::Status MigrationClient::FetchArtifact(const std::string& job_id, v1::ArtifactKind kind,
                                            const ArchiveChunkSink& sink, const ArtifactInfoCallback& on_info) {
  grpc::ClientContext context;
  v1::FetchArtifactRequest request;
  request.set_job_id(job_id);
  request.set_kind(kind);
  auto reader = stub_->FetchArtifact(&context, request);
  v1::ArtifactChunk chunk;
  bool saw_info = false;
  int64_t expected_bytes = -1;
  int64_t received = 0;
  absl::Status sink_status;
  while (reader->Read(&chunk)) {
    if (chunk.has_info()) {
      saw_info = true;
      expected_bytes = chunk.info().size_bytes();
      if (on_info) on_info(chunk.info());
      continue;
    }
    received += static_cast<int64_t>(chunk.data().size());
    sink_status = sink(chunk.data());
    if (!sink_status.ok()) {
      context.TryCancel();
      break;
    }
  }
  grpc::Status status = reader->Finish();
  if (!sink_status.ok()) return sink_status;
  if (!status.ok()) return FromGrpcStatus(status, "fetch " + v1::ArtifactKind_Name(kind) + " of " + job_id);
  if (!saw_info) return absl::DataLossError("artifact stream without a header");
  if (expected_bytes >= 0 && received != expected_bytes) {
    return absl::DataLossError("artifact truncated: got " + std::to_string(received) + " of " +
                               std::to_string(expected_bytes) + " bytes");
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::Job> MigrationClient::Cancel(const std::string& job_id, const std::string& reason) {
  return WithFailover(server_count_, [&]() -> absl::StatusOr<v1::Job> {
    grpc::ClientContext context;
    SetDeadline(context);
    v1::CancelJobRequest request;
    request.set_job_id(job_id);
    request.set_reason(reason);
    v1::Job job;
    grpc::Status status = stub_->CancelJob(&context, request, &job);
    if (!status.ok()) return FromGrpcStatus(status, "cancel job " + job_id);
    return job;
  });
}

absl::StatusOr<ExtractResult> MigrationClient::FetchTreeInto(const std::string& job_id, const fs::path& out_dir) {
  std::error_code error;
  if (fs::exists(out_dir, error) && !(fs::is_directory(out_dir, error) && fs::is_empty(out_dir, error))) {
    return absl::FailedPreconditionError("output directory is not empty: " + out_dir.string());
  }
  const fs::path absolute_out = fs::absolute(out_dir);
  fs::create_directories(absolute_out.parent_path(), error);
  auto temp = DownloadToTempFile(*this, job_id, v1::ARTIFACT_KIND_TRANSLATED_TREE, SiblingTempPath(absolute_out));
  if (!temp.ok()) return temp.status();
  // The server's tree is extracted with the same limits as an upload: a compromised server must not
  // be able to write outside --out either.
  ExtractLimits limits;
  limits.max_name_bytes = kMaxDerivedNameBytes;  // a translated tree: renamed names may be longer than an upload's
  auto extracted = SafeExtractFile(*temp, absolute_out, limits);
  fs::remove(*temp, error);
  return extracted;
}

absl::Status MigrationClient::FetchPatchInto(const std::string& job_id, const fs::path& patch_file) {
  const fs::path absolute_patch = fs::absolute(patch_file);
  std::error_code error;
  fs::create_directories(absolute_patch.parent_path(), error);
  auto temp = DownloadToTempFile(*this, job_id, v1::ARTIFACT_KIND_PATCH, SiblingTempPath(absolute_patch));
  if (!temp.ok()) return temp.status();
  fs::rename(*temp, absolute_patch, error);
  if (error) {
    fs::remove(*temp, error);
    return absl::InternalError("cannot write " + absolute_patch.string());
  }
  return absl::OkStatus();
}

}  // namespace hipforge::client
