#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "common/report/report_proto.h"
#include "common/sha256.h"
#include "server/grpc_services.h"
#include "server/proto_convert.h"

namespace hipforge::server {
namespace {

std::vector<TaskKind> ToKinds(const google::protobuf::RepeatedField<int>& roles) {
  std::vector<TaskKind> kinds;
  for (int role : roles) {
    if (role == v1::TASK_ROLE_TRANSLATE || role == v1::TASK_ROLE_VALIDATE) {
      kinds.push_back(FromProto(static_cast<v1::TaskRole>(role)));
    }
  }
  return kinds;
}

// Capability strings matched against a task's required capabilities ("arch:gfx90a", "gpu").
std::vector<std::string> CapabilityTags(const v1::WorkerCapabilities& capabilities) {
  std::vector<std::string> tags;
  for (const std::string& arch : capabilities.gpu_archs()) tags.push_back("gpu:" + arch);
  for (const std::string& target : capabilities.toolchain_targets()) tags.push_back("target:" + target);
  if (capabilities.has_gpu()) tags.push_back("gpu");
  return tags;
}

// The toolchain names the worker advertises, as its credential must allow them: each probed toolchain's
// name, or (a worker that sends no toolchain list) the single toolchain string.
std::vector<std::string> AdvertisedToolchains(const v1::WorkerCapabilities& capabilities) {
  std::vector<std::string> names;
  for (const v1::ToolchainCapability& toolchain : capabilities.toolchains()) names.push_back(toolchain.name());
  if (names.empty()) names.push_back(capabilities.toolchain());
  return names;
}

// The worker's toolchains as the lease query matches them (LeaseRequest::toolchains_json).
nlohmann::json ToolchainsJson(const v1::WorkerCapabilities& capabilities) {
  nlohmann::json toolchains = nlohmann::json::array();
  for (const v1::ToolchainCapability& toolchain : capabilities.toolchains()) {
    const std::string& version = toolchain.hip_version();
    const size_t second_dot = version.find('.', version.find('.') + 1);
    toolchains.push_back(nlohmann::json{
        {"name", toolchain.name()},
        {"hip_version", version},
        {"hip_release", version.substr(0, second_dot)},
        {"clang_version", toolchain.clang_version()},
        {"archs", std::vector<std::string>(toolchain.offload_archs().begin(), toolchain.offload_archs().end())},
        {"stand_in_archs",
         std::vector<std::string>(toolchain.stand_in_archs().begin(), toolchain.stand_in_archs().end())},
        {"libraries", std::vector<std::string>(toolchain.libraries().begin(), toolchain.libraries().end())}});
  }
  return toolchains;
}

}  // namespace

grpc::Status GrpcWorkerService::RegisterWorker(grpc::ServerContext* context, const v1::RegisterWorkerRequest* request,
                                               v1::RegisterWorkerResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  WorkerInfo worker;
  worker.id = request->worker_id();
  worker.roles = ToKinds(request->roles());
  const v1::WorkerCapabilities& caps = request->capabilities();
  worker.capabilities_json = nlohmann::json{
      {"gpu_archs", std::vector<std::string>(caps.gpu_archs().begin(), caps.gpu_archs().end())},
      {"toolchain_targets", std::vector<std::string>(caps.toolchain_targets().begin(), caps.toolchain_targets().end())},
      {"has_gpu", caps.has_gpu()},
      {"toolchain", caps.toolchain()},
      {"toolchains", ToolchainsJson(caps)},
      {"hostname", request->hostname()},
      {"version",
       request->version()}}.dump();
  if (absl::Status status = tasks_.RegisterWorker(*identity, worker, CapabilityTags(caps), AdvertisedToolchains(caps),
                                                  ToolchainsJson(caps).dump());
      !status.ok()) {
    return ToGrpc(status);
  }
  response->set_lease_duration_ms(tasks_.limits().lease_duration.count());
  response->set_max_artifact_bytes(tasks_.limits().max_artifact_bytes);
  response->set_chunk_bytes(tasks_.limits().chunk_bytes);
  const ExtractLimits& upload = tasks_.limits().upload;
  v1::ArchiveLimits* input_limits = response->mutable_input_limits();
  input_limits->set_max_compressed_bytes(upload.max_compressed_bytes);
  input_limits->set_max_uncompressed_bytes(upload.max_uncompressed_bytes);
  input_limits->set_max_files(upload.max_files);
  input_limits->set_max_compression_ratio(upload.max_compression_ratio);
  input_limits->set_ratio_check_floor_bytes(upload.ratio_check_floor_bytes);
  return grpc::Status::OK;
}

grpc::Status GrpcWorkerService::LeaseTask(grpc::ServerContext* context, const v1::LeaseTaskRequest* request,
                                          v1::LeaseTaskResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  if (request->worker_id().empty()) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "worker_id is empty");
  std::vector<TaskKind> roles = ToKinds(request->roles());  // empty: the roles given at registration
  absl::StatusOr<std::optional<LeaseGrant>> grant =
      tasks_.Lease(*identity, request->worker_id(), roles, std::chrono::milliseconds(request->wait_ms()),
                   [context] { return context->IsCancelled(); });
  if (!grant.ok()) return ToGrpc(grant.status());
  if (!grant->has_value()) return grpc::Status::OK;
  absl::StatusOr<v1::Task> task = ToProto((*grant)->task, (*grant)->job);
  if (!task.ok()) return ToGrpc(task.status());
  task->set_lease_duration_ms(tasks_.limits().lease_duration.count());
  task->set_managed_memory_found((*grant)->hints.managed_memory);
  *response->mutable_task() = *std::move(task);
  return grpc::Status::OK;
}

grpc::Status GrpcWorkerService::Heartbeat(grpc::ServerContext* context, const v1::HeartbeatRequest* request,
                                          v1::HeartbeatResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  absl::StatusOr<HeartbeatOutcome> outcome = tasks_.Heartbeat(FromProto(request->lease()));
  if (!outcome.ok()) return ToGrpc(outcome.status());
  response->set_cancel_requested(outcome->cancel_requested);
  if (!outcome->cancel_requested) response->set_lease_duration_ms(tasks_.limits().lease_duration.count());
  return grpc::Status::OK;
}

grpc::Status GrpcWorkerService::DownloadInput(grpc::ServerContext* context, const v1::DownloadInputRequest* request,
                                              grpc::ServerWriter<v1::ArtifactChunk>* writer) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  absl::StatusOr<InputDownload> input = tasks_.OpenInput(FromProto(request->lease()), request->original());
  if (!input.ok()) return ToGrpc(input.status());
  v1::ArtifactChunk message;
  message.mutable_info()->set_sha256(input->digest);
  message.mutable_info()->set_size_bytes(input->reader->size_bytes());
  if (!writer->Write(message)) return grpc::Status(grpc::StatusCode::CANCELLED, "worker went away");
  for (;;) {
    absl::StatusOr<std::string> data = input->reader->Read(static_cast<size_t>(tasks_.limits().chunk_bytes));
    if (!data.ok()) return ToGrpc(data.status());
    if (data->empty()) return grpc::Status::OK;
    message.Clear();
    message.set_data(*std::move(data));
    if (!writer->Write(message)) return grpc::Status(grpc::StatusCode::CANCELLED, "worker went away");
  }
}

grpc::Status GrpcWorkerService::Complete(grpc::ServerContext* context, grpc::ServerReader<v1::CompleteRequest>* reader,
                                         v1::CompleteResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  v1::CompleteRequest message;
  if (!reader->Read(&message) || !message.has_header()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the first Complete message must be the header");
  }
  const v1::CompleteHeader header = message.header();
  CompletionRequest completion{FromProto(header.lease()),
                               header.result().ok(),
                               header.result().summary(),
                               std::nullopt,
                               {},
                               report::ValidateHints{.managed_memory = header.validate_hints().managed_memory()}};
  if (header.has_report()) {
    absl::StatusOr<report::ReportDocument> sent = report::FromProto(header.report());
    if (!sent.ok()) return ToGrpc(sent.status());
    completion.report = std::move(sent->report);
  }
  // A worker that lost its lease gets "not accepted" before it uploads anything.
  if (absl::Status lease = tasks_.CheckLease(completion.lease); !lease.ok()) {
    if (lease.code() != absl::StatusCode::kFailedPrecondition && lease.code() != absl::StatusCode::kNotFound) {
      return ToGrpc(lease);
    }
    spdlog::info("[job={}] [worker={}] late completion of task {} ignored: {}", completion.lease.job_id,
                 completion.lease.worker_id, completion.lease.task_id, std::string(lease.message()));
    while (reader->Read(&message)) {
    }
    response->set_accepted(false);
    return grpc::Status::OK;
  }

  std::unique_ptr<ArtifactWriter> writer;
  v1::ArtifactInfo current;
  auto finish_current = [&]() -> absl::Status {
    if (!writer) return absl::OkStatus();
    absl::StatusOr<StoredArtifact> stored = writer->Finish();
    writer.reset();
    if (!stored.ok()) return stored.status();
    // What arrived must be what the worker described: a stream that lost bytes (or a file that changed while the
    // worker read it) fails the whole completion, and the lease stays for a retry.
    if (current.size_bytes() != stored->size_bytes) {
      return absl::DataLossError(absl::StrCat("artifact ", ArtifactRole(current.kind()), ": ", stored->size_bytes,
                                              " bytes arrived, its info says ", current.size_bytes()));
    }
    if (!current.sha256().empty() && current.sha256() != stored->digest) {
      return absl::DataLossError(absl::StrCat("artifact ", ArtifactRole(current.kind()), " checksum mismatch"));
    }
    completion.artifacts.push_back({ArtifactRole(current.kind()), stored->digest, stored->size_bytes,
                                    MediaType(current.kind(), current.format())});
    return absl::OkStatus();
  };
  while (reader->Read(&message)) {
    if (message.has_artifact()) {
      if (absl::Status done = finish_current(); !done.ok()) return ToGrpc(done);
      current = message.artifact();
      if (ArtifactRole(current.kind()).empty()) {
        return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "artifact kind unspecified");
      }
      absl::StatusOr<std::unique_ptr<ArtifactWriter>> next = tasks_.NewArtifactWriter();
      if (!next.ok()) return ToGrpc(next.status());
      writer = *std::move(next);
    } else if (message.payload_case() == v1::CompleteRequest::kChunk) {
      if (!writer) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "artifact data before artifact info");
      if (absl::Status appended = writer->Append(message.chunk()); !appended.ok()) return ToGrpc(appended);
    } else {
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "Complete carries exactly one header");
    }
  }
  // Read() also ends when the worker went away mid-stream (killed, cancelled, deadline): only a stream the
  // worker closed itself is a completion; what arrived of another is dropped and the lease stays.
  if (context->IsCancelled()) {
    spdlog::warn("[job={}] [worker={}] completion of task {} abandoned mid-stream; not applied",
                 completion.lease.job_id, completion.lease.worker_id, completion.lease.task_id);
    return grpc::Status(grpc::StatusCode::CANCELLED, "the Complete stream ended before the worker closed it");
  }
  if (absl::Status done = finish_current(); !done.ok()) return ToGrpc(done);
  absl::StatusOr<CompletionOutcome> outcome = tasks_.Complete(completion);
  if (!outcome.ok()) return ToGrpc(outcome.status());
  response->set_accepted(*outcome == CompletionOutcome::kApplied);
  return grpc::Status::OK;
}

grpc::Status GrpcWorkerService::FailTask(grpc::ServerContext* context, const v1::FailTaskRequest* request,
                                         v1::FailTaskResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  absl::StatusOr<FailureOutcome> outcome =
      request->give_back() ? tasks_.GiveBack(FromProto(request->lease()), request->error())
                           : tasks_.Fail(FromProto(request->lease()), request->error(), request->permanent());
  if (!outcome.ok()) return ToGrpc(outcome.status());
  response->set_accepted(*outcome != FailureOutcome::kLeaseLost);
  return grpc::Status::OK;
}

grpc::Status GrpcWorkerService::ReportProgress(grpc::ServerContext* context, const v1::ReportProgressRequest* request,
                                               v1::ReportProgressResponse* response) {
  absl::StatusOr<WorkerIdentity> identity = auth_.WorkerOf(*context);
  if (!identity.ok()) return ToGrpc(identity.status());
  std::vector<std::pair<std::string, std::string>> events;
  for (const v1::JobEvent& event : request->events()) {
    absl::StatusOr<std::pair<std::string, std::string>> payload = EventPayload(event);
    if (!payload.ok()) return ToGrpc(payload.status());
    events.push_back(*std::move(payload));
  }
  absl::Status status = tasks_.AppendProgress(FromProto(request->lease()), events);
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    response->set_accepted(false);
    return grpc::Status::OK;
  }
  if (!status.ok()) return ToGrpc(status);
  response->set_accepted(true);
  return grpc::Status::OK;
}

}  // namespace hipforge::server
