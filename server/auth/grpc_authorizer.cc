#include "server/auth/grpc_authorizer.h"

#include <spdlog/spdlog.h>

namespace hipforge::server {

std::string AuthorizationMetadata(const grpc::ServerContext& context) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

absl::StatusOr<Caller> GrpcAuthorizer::CallerOf(const grpc::ServerContext& context) const {
  absl::StatusOr<Caller> caller = callers_.Authenticate(AuthorizationMetadata(context));
  if (!caller.ok())
    spdlog::info("[job=-] refused a MigrationService call from {}: {}", context.peer(),
                 std::string(caller.status().message()));
  return caller;
}

absl::StatusOr<WorkerIdentity> GrpcAuthorizer::WorkerOf(const grpc::ServerContext& context) const {
  absl::StatusOr<WorkerIdentity> worker = workers_.AuthenticateWorker(AuthorizationMetadata(context));
  if (!worker.ok())
    spdlog::info("[job=-] refused a WorkerService call from {}: {}", context.peer(),
                 std::string(worker.status().message()));
  return worker;
}

}  // namespace hipforge::server
