#pragma once
// Who is calling the server: the team and scopes that a request's credential grants. Every read and write of a
// team's jobs takes the caller's team as a parameter down to the store queries (tenancy is one parameter through
// every read, gRPC and HTTP alike). The security work implements CallerAuthenticator over API tokens; the HTTP
// front end and the gRPC handlers only call it.
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::server {

enum class Scope { kSubmit, kRead, kCancel, kAdmin };

// Names as stored and as written on the command line.
inline std::string_view ScopeName(Scope scope) {
  switch (scope) {
    case Scope::kSubmit: return "submit";
    case Scope::kRead: return "read";
    case Scope::kCancel: return "cancel";
    case Scope::kAdmin: return "admin";
  }
  return "unknown";
}

struct Caller {
  std::string team;
  std::vector<Scope> scopes;
  std::string token_id;  // the token's visible id/prefix, for audit; never the secret

  bool Has(Scope scope) const {
    for (Scope s : scopes) {
      if (s == scope || s == Scope::kAdmin) return true;
    }
    return false;
  }
};

class CallerAuthenticator {
 public:
  virtual ~CallerAuthenticator() = default;
  // `authorization` is the raw value of the `authorization` header/metadata ("Bearer <token>").
  // UNAUTHENTICATED for a missing, malformed, unknown, expired or revoked token.
  virtual absl::StatusOr<Caller> Authenticate(std::string_view authorization) const = 0;
};

// A worker process, as its worker credential (one per pool) describes it.
struct WorkerIdentity {
  std::string pool;
  std::vector<std::string> roles;       // task kinds it may run: "translate", "validate"
  std::vector<std::string> toolchains;  // toolchains it may advertise; empty: any
  std::string credential_id;            // visible id, for audit and logs; never the secret

  bool MayRun(std::string_view role) const {
    for (const std::string& r : roles) {
      if (r == role) return true;
    }
    return false;
  }
};

class WorkerAuthenticator {
 public:
  virtual ~WorkerAuthenticator() = default;
  // UNAUTHENTICATED for a missing, malformed, unknown, expired or revoked credential;
  // PERMISSION_DENIED for a valid team token (WorkerService takes worker credentials only).
  virtual absl::StatusOr<WorkerIdentity> AuthenticateWorker(std::string_view authorization) const = 0;
};

}  // namespace hipforge::server
