#pragma once
// The first line of every MigrationService and WorkerService handler: who is calling, from the
// `authorization` metadata. Scopes and tenancy are decided by the domain services (JobService,
// TaskService), so the gRPC and HTTP front ends apply the same rules.
#include <grpcpp/server_context.h>

#include "absl/status/statusor.h"
#include "server/auth/caller.h"

namespace hipforge::server {

class GrpcAuthorizer {
 public:
  GrpcAuthorizer(const CallerAuthenticator& callers, const WorkerAuthenticator& workers)
      : callers_(callers), workers_(workers) {}

  absl::StatusOr<Caller> CallerOf(const grpc::ServerContext& context) const;
  absl::StatusOr<WorkerIdentity> WorkerOf(const grpc::ServerContext& context) const;

 private:
  const CallerAuthenticator& callers_;
  const WorkerAuthenticator& workers_;
};

// The raw `authorization` metadata value ("" when absent).
std::string AuthorizationMetadata(const grpc::ServerContext& context);

}  // namespace hipforge::server
