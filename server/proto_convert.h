#pragma once
// Conversions between hipforge.v1 messages and the store's domain types. Handlers use these and
// nothing else, so the services stay free of protobuf.
#include <string>

#include <grpcpp/support/status.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hipforge/v1/job.pb.h"
#include "hipforge/v1/worker_service.pb.h"
#include "server/store/job_store.h"

namespace hipforge::server {

grpc::Status ToGrpc(const absl::Status& status);

v1::JobState ToProto(JobState state);
std::optional<JobState> FromProto(v1::JobState state);  // nullopt for UNSPECIFIED
TaskKind FromProto(v1::TaskRole role);
v1::TaskRole ToProto(TaskKind kind);

// InvalidArgument for specs the server will not run (bad target names, ...).
absl::StatusOr<JobSpec> FromProto(const v1::JobSpec& spec);
v1::JobSpec ToProto(const JobSpec& spec);

void FillJob(const Job& job, v1::Job* out);

// Artifact roles as stored: "input", "translated_tree", "patch", "build_log".
std::string ArtifactRole(v1::ArtifactKind kind);
std::string MediaType(v1::ArtifactKind kind, v1::CompressionFormat format);
v1::CompressionFormat FormatOf(const std::string& media_type);

// Job events: the store keeps (kind, payload JSON); the API has a typed oneof.
// kind "state" (written by the store), "file", "step", "log"; anything else becomes a log line.
v1::JobEvent ToProto(const JobEvent& event);
// (kind, payload JSON) for an event a worker reported; InvalidArgument for an empty event.
absl::StatusOr<std::pair<std::string, std::string>> EventPayload(const v1::JobEvent& event);

// A lease as the worker calls carry it (hipforge.v1.Lease), field for field.
v1::Lease ToProto(const Lease& lease);
Lease FromProto(const v1::Lease& lease);

// The Task a worker receives for a leased task (spec rebuilt from the lease payload).
absl::StatusOr<v1::Task> ToProto(const LeasedTask& task, const Job& job);

}  // namespace hipforge::server
