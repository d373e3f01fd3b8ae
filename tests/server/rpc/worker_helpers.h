#pragma once
// Plays a worker over raw WorkerService calls, so tests control exactly when each call happens.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hipforge/v1/worker_service.grpc.pb.h"

namespace hipforge::server::testing {

grpc::Status Register(v1::WorkerService::Stub& stub, const std::string& worker_id,
                      v1::TaskRole role = v1::TASK_ROLE_TRANSLATE);
std::optional<v1::Task> Lease(v1::WorkerService::Stub& stub, const std::string& worker_id, int wait_ms,
                              grpc::Status* status = nullptr);
grpc::Status Heartbeat(v1::WorkerService::Stub& stub, const v1::Task& task);
grpc::Status Download(v1::WorkerService::Stub& stub, const v1::Task& task, std::string* data,
                      v1::ArtifactInfo* info = nullptr);
// Completes with a report (written as JSON, sent typed as a worker sends it; empty: none) and artifacts (kind ->
// bytes); `managed_memory`: the validate hint a translate worker sends.
grpc::Status Complete(v1::WorkerService::Stub& stub, const v1::Task& task, const std::string& report_json,
                      const std::map<v1::ArtifactKind, std::string>& artifacts, v1::CompleteResponse* response,
                      bool ok = true, bool managed_memory = false);
// One artifact as sent: its info as given (sha256 and size_bytes need not match) and the bytes that follow it.
struct SentArtifact {
  v1::ArtifactInfo info;
  std::string bytes;
};
// The info Complete sends for `bytes`: their sha256 and size.
v1::ArtifactInfo InfoOf(v1::ArtifactKind kind, const std::string& bytes);
grpc::Status CompleteSending(v1::WorkerService::Stub& stub, const v1::Task& task, const std::string& report_json,
                             const std::vector<SentArtifact>& artifacts, v1::CompleteResponse* response, bool ok = true,
                             bool managed_memory = false);

// A translation report with `files` translated files (docs/report.md shape).
std::string TranslationReport(const std::string& job_id, int files);

}  // namespace hipforge::server::testing
