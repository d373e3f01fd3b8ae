#include "tests/server/rpc/worker_helpers.h"

#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "common/report/report_proto.h"
#include "common/sha256.h"
#include "tests/common/report_fixture.h"

namespace hipforge::server::testing {

grpc::Status Register(v1::WorkerService::Stub& stub, const std::string& worker_id, v1::TaskRole role) {
  grpc::ClientContext context;
  v1::RegisterWorkerRequest request;
  request.set_worker_id(worker_id);
  request.add_roles(role);
  request.mutable_capabilities()->add_toolchain_targets("gfx90a");
  v1::RegisterWorkerResponse response;
  return stub.RegisterWorker(&context, request, &response);
}

std::optional<v1::Task> Lease(v1::WorkerService::Stub& stub, const std::string& worker_id, int wait_ms,
                              grpc::Status* status) {
  grpc::ClientContext context;
  v1::LeaseTaskRequest request;
  request.set_worker_id(worker_id);
  request.set_wait_ms(wait_ms);
  v1::LeaseTaskResponse response;
  grpc::Status result = stub.LeaseTask(&context, request, &response);
  if (status != nullptr) *status = result;
  if (!result.ok() || !response.has_task()) return std::nullopt;
  return response.task();
}

grpc::Status Heartbeat(v1::WorkerService::Stub& stub, const v1::Task& task) {
  grpc::ClientContext context;
  v1::HeartbeatRequest request;
  *request.mutable_lease() = task.lease();
  v1::HeartbeatResponse response;
  return stub.Heartbeat(&context, request, &response);
}

grpc::Status Download(v1::WorkerService::Stub& stub, const v1::Task& task, std::string* data, v1::ArtifactInfo* info) {
  grpc::ClientContext context;
  v1::DownloadInputRequest request;
  *request.mutable_lease() = task.lease();
  auto reader = stub.DownloadInput(&context, request);
  v1::ArtifactChunk chunk;
  data->clear();
  while (reader->Read(&chunk)) {
    if (chunk.has_info()) {
      if (info != nullptr) *info = chunk.info();
    } else {
      data->append(chunk.data());
    }
  }
  return reader->Finish();
}

grpc::Status Complete(v1::WorkerService::Stub& stub, const v1::Task& task, const std::string& report_json,
                      const std::map<v1::ArtifactKind, std::string>& artifacts, v1::CompleteResponse* response, bool ok,
                      bool managed_memory) {
  std::vector<SentArtifact> sent;
  for (const auto& [kind, bytes] : artifacts) sent.push_back({InfoOf(kind, bytes), bytes});
  return CompleteSending(stub, task, report_json, sent, response, ok, managed_memory);
}

v1::ArtifactInfo InfoOf(v1::ArtifactKind kind, const std::string& bytes) {
  v1::ArtifactInfo info;
  info.set_kind(kind);
  info.set_sha256(Sha256Hex(bytes));
  info.set_size_bytes(static_cast<int64_t>(bytes.size()));
  info.set_format(v1::COMPRESSION_FORMAT_TAR_GZIP);
  return info;
}

grpc::Status CompleteSending(v1::WorkerService::Stub& stub, const v1::Task& task, const std::string& report_json,
                             const std::vector<SentArtifact>& artifacts, v1::CompleteResponse* response, bool ok,
                             bool managed_memory) {
  grpc::ClientContext context;
  auto writer = stub.Complete(&context, response);
  v1::CompleteRequest message;
  v1::CompleteHeader* header = message.mutable_header();
  *header->mutable_lease() = task.lease();
  header->mutable_lease()->set_worker_id("test");
  header->mutable_result()->set_ok(ok);
  header->mutable_result()->set_summary(ok ? "done" : "cannot translate");
  if (!report_json.empty()) *header->mutable_report() = report::ToProto(report::testing::ReportOf(report_json));
  header->mutable_validate_hints()->set_managed_memory(managed_memory);
  writer->Write(message);
  for (const SentArtifact& artifact : artifacts) {
    message.Clear();
    *message.mutable_artifact() = artifact.info;
    writer->Write(message);
    for (size_t offset = 0; offset < artifact.bytes.size(); offset += 1000) {
      message.Clear();
      message.set_chunk(artifact.bytes.substr(offset, 1000));
      writer->Write(message);
    }
  }
  writer->WritesDone();
  return writer->Finish();
}

std::string TranslationReport(const std::string& job_id, int files) {
  nlohmann::json report;
  report["job_id"] = job_id;
  nlohmann::json list = nlohmann::json::array();
  for (int i = 0; i < files; ++i) {
    list.push_back({{"path", "src/f" + std::to_string(i) + ".cu"},
                    {"status", "translated"},
                    {"fallback_reason", ""},
                    {"converted", {{"function", 3}}},
                    {"unconverted", 0},
                    {"unsupported", 0},
                    {"lines_changed", 4},
                    {"changed_by", {"runtime"}}});
  }
  report["translation"] = {{"files", list},
                           {"totals",
                            {{"files", files},
                             {"translated", files},
                             {"fallback", 0},
                             {"converted", 3 * files},
                             {"unsupported", 0},
                             {"lines_changed", 4 * files}}}};
  report["findings"] = nlohmann::json::array({{{"rule_id", "HB101"},
                                               {"severity", "warning"},
                                               {"path", "src/f0.cu"},
                                               {"line", 3},
                                               {"column", 1},
                                               {"message", "warp size"},
                                               {"fix", ""},
                                               {"auto_fixed", false}}});
  report["effort"] = {
      {"engineer_hours", 1.5}, {"automatic_share", 0.9}, {"by_severity", {{"error", 0}, {"warning", 1}, {"note", 0}}}};
  return report.dump();
}

}  // namespace hipforge::server::testing
