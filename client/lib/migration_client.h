#pragma once
// Client side of hipforge.v1.MigrationService: one method per RPC, absl::Status instead of
// grpc::Status, uploads packed from a directory, artifacts streamed to a sink.
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/archive.h"
#include "common/grpc_channel.h"
#include "common/process.h"
#include "hipforge/v1/migration_service.grpc.pb.h"

namespace hipforge::client {

struct ClientOptions {
  // One address, or several of one replica set ("a:50051,b:50051"): calls go to the first that answers and
  // move on to the next when it dies (common/grpc_channel.h).
  std::string server = "localhost:50051";
  std::chrono::milliseconds rpc_timeout{std::chrono::seconds(30)};  // unary calls
  size_t upload_chunk_bytes = 1 << 20;  // the API's documented maximum per SubmitRequest chunk
  ChannelSecurity security;             // token (sent as authorization: Bearer) and TLS settings
};

// Thrown by Connect when the channel cannot be set up (unreadable CA or key file, bad token file);
// migrate-cli turns it into its usual "migrate-cli: <message>" and exit code.
class ConnectionSetupError : public std::runtime_error {
 public:
  explicit ConnectionSetupError(absl::Status status)
      : std::runtime_error(std::string(status.message())), status_(std::move(status)) {}
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
};

// Server address(es) from --server, else MIGRATE_SERVER, else localhost:50051.
std::string ResolveServerAddress(const std::string& flag_value);

// grpc::Status -> absl::Status with the same code; `context` prefixes the message.
absl::Status FromGrpcStatus(const grpc::Status& status, const std::string& context);

using UploadProgressCallback = std::function<void(const PackProgress&)>;
// Receives each event; returning false stops watching (the call then returns OK).
using JobEventCallback = std::function<bool(const hipforge::v1::JobEvent&)>;
using ArtifactInfoCallback = std::function<void(const hipforge::v1::ArtifactInfo&)>;

class MigrationClient {
 public:
  MigrationClient(std::unique_ptr<hipforge::v1::MigrationService::StubInterface> stub, ClientOptions options,
                  ProcessLauncher& launcher);
  // Channel to options.server with options.security (TLS when configured, the token on every call).
  // Throws ConnectionSetupError when a certificate or key cannot be read.
  static std::unique_ptr<MigrationClient> Connect(const ClientOptions& options, ProcessLauncher& launcher);

  // Packs `repository` (gitignore-aware, .git skipped) and streams it after the spec header. Every try carries
  // `request_id` (empty: a new random one, NewSubmitRequestId), so one sent again after a lost answer returns the
  // job the first made; a caller retrying by itself passes the same id each time.
  absl::StatusOr<hipforge::v1::Job> Submit(const std::filesystem::path& repository, const hipforge::v1::JobSpec& spec,
                                           ArchiveCompression compression, const UploadProgressCallback& progress,
                                           const std::string& request_id = {});
  absl::StatusOr<hipforge::v1::Job> GetJob(const std::string& job_id);
  // Follows the job's events until it reaches a final state, `on_event` returns false, or
  // `timeout` passes (DeadlineExceeded). Reconnects (resuming after the last sequence seen) when the
  // stream breaks while a server stays reachable, so a server restart, or its death with several servers
  // listed, does not end the watch: each event is delivered once, in sequence order.
  // Returns the job as last seen.
  absl::StatusOr<hipforge::v1::Job> Watch(const std::string& job_id, const JobEventCallback& on_event,
                                          std::chrono::milliseconds timeout);
  absl::StatusOr<hipforge::v1::ListJobsResponse> ListJobs(const hipforge::v1::ListJobsRequest& request);
  absl::StatusOr<hipforge::v1::Report> GetReport(const std::string& job_id);
  // Streams one artifact into `sink`; `on_info` sees the header first. Verifies size and sha256.
  absl::Status FetchArtifact(const std::string& job_id, hipforge::v1::ArtifactKind kind, const ArchiveChunkSink& sink,
                             const ArtifactInfoCallback& on_info = nullptr);
  absl::StatusOr<hipforge::v1::Job> Cancel(const std::string& job_id, const std::string& reason);

  // How many servers options.server lists; with more than one, calls that fail UNAVAILABLE are repeated
  // (the upload too, whole), reaching the next server.
  int server_count() const { return server_count_; }

  // Fetches the translated tree and unpacks it (SafeExtract) into `out_dir` (absent or empty).
  absl::StatusOr<ExtractResult> FetchTreeInto(const std::string& job_id, const std::filesystem::path& out_dir);
  // Fetches the unified patch into `patch_file` (written atomically).
  absl::Status FetchPatchInto(const std::string& job_id, const std::filesystem::path& patch_file);

 private:
  void SetDeadline(grpc::ClientContext& context) const;
  absl::StatusOr<hipforge::v1::Job> SubmitOnce(const std::filesystem::path& repository,
                                               const hipforge::v1::JobSpec& spec, ArchiveCompression compression,
                                               const UploadProgressCallback& progress, const std::string& request_id);

  std::unique_ptr<hipforge::v1::MigrationService::StubInterface> stub_;
  ClientOptions options_;
  ProcessLauncher& launcher_;
  int server_count_;
};

// A fresh SubmitHeader.request_id: 128 random bits as 32 hex digits.
std::string NewSubmitRequestId();

bool IsFinalState(hipforge::v1::JobState state);
// "queued", "translating", ... (the proto name without the prefix, lower case).
std::string JobStateName(hipforge::v1::JobState state);
// Inverse of JobStateName; InvalidArgument for unknown names.
absl::StatusOr<hipforge::v1::JobState> ParseJobState(const std::string& name);

}  // namespace hipforge::client
