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

}  // namespace hipforge::server
