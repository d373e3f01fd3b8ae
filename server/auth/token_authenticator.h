#pragma once
// CallerAuthenticator and WorkerAuthenticator over the credentials table: the bearer value is parsed,
// its record found by the visible id, the secret's SHA-256 compared in constant time, then expiry
// and revocation checked against the injected clock. Messages say what is wrong, never the secret.
#include "common/clock.h"
#include "server/auth/caller.h"
#include "server/auth/credential_store.h"

namespace hipforge::server {

class TokenAuthenticator final : public CallerAuthenticator, public WorkerAuthenticator {
 public:
  TokenAuthenticator(CredentialStore& store, const Clock& clock) : store_(store), clock_(clock) {}

  absl::StatusOr<Caller> Authenticate(std::string_view authorization) const override;
  absl::StatusOr<WorkerIdentity> AuthenticateWorker(std::string_view authorization) const override;

 private:
  absl::StatusOr<CredentialRecord> Verify(std::string_view authorization) const;

  CredentialStore& store_;
  const Clock& clock_;
};

// "Bearer <token>" -> "<token>"; UNAUTHENTICATED when absent or another scheme.
absl::StatusOr<std::string_view> BearerValue(std::string_view authorization);

}  // namespace hipforge::server
