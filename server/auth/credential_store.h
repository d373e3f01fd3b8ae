#pragma once
// Where credentials and the audit trail live. PostgresCredentialStore (postgres_credential_store.cc)
// is the real one; tests of the authenticator can use their own.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "server/auth/caller.h"
#include "server/auth/token_secret.h"

namespace hipforge::server {

using CredentialTime = std::chrono::system_clock::time_point;

struct CredentialRecord {
  std::string id;  // visible part, e.g. "hft_0123456789ab"
  CredentialKind kind = CredentialKind::kTeam;
  std::string team;                     // team tokens
  std::vector<Scope> scopes;            // team tokens
  std::string pool;                     // worker credentials
  std::vector<std::string> roles;       // worker credentials: "translate", "validate"
  std::vector<std::string> toolchains;  // worker credentials; empty: any
  std::string secret_sha256;
  std::string description;
  std::string created_by;
  CredentialTime created_at;
  std::optional<CredentialTime> expires_at;
  std::optional<CredentialTime> revoked_at;
  std::optional<CredentialTime> last_used_at;
};

struct AuditEvent {
  int64_t seq = 0;
  CredentialTime at;
  std::string actor;  // credential id or "admin-cli:<user>"
  std::string team;
  std::string action;  // submit | read | cancel | token_create | token_revoke | denied
  std::string target;
  std::string outcome;  // ok | refused
  std::string detail;
  std::string peer;
};

class CredentialStore {
 public:
  virtual ~CredentialStore() = default;
  virtual absl::Status Insert(const CredentialRecord& record) = 0;
  virtual absl::StatusOr<std::optional<CredentialRecord>> Find(const std::string& id) = 0;
  // std::nullopt: every credential.
  virtual absl::StatusOr<std::vector<CredentialRecord>> List(const std::optional<std::string>& team) = 0;
  // NotFound when there is no such credential.
  virtual absl::Status Revoke(const std::string& id, CredentialTime at) = 0;
  virtual absl::Status TouchLastUsed(const std::string& id, CredentialTime at) = 0;
  virtual absl::Status AppendAudit(const AuditEvent& event) = 0;
  // Newest first; before_seq 0: from the newest.
  virtual absl::StatusOr<std::vector<AuditEvent>> ListAudit(const std::optional<std::string>& team, int64_t before_seq,
                                                            int limit) = 0;
};

// Opens a pool on the store's database and schema (migrations are applied by the job store).
absl::StatusOr<std::unique_ptr<CredentialStore>> OpenPostgresCredentialStore(const std::string& database_url,
                                                                             const std::string& schema);

std::optional<Scope> ParseScope(std::string_view name);
// "submit,read" -> scopes; InvalidArgument naming the unknown scope.
absl::StatusOr<std::vector<Scope>> ParseScopes(std::string_view comma_separated);

// A new credential: generated secret, record filled in (created_at from `clock`). The caller prints
// `token.value` once and stores `record`.
struct NewCredential {
  GeneratedToken token;
  CredentialRecord record;
};
absl::StatusOr<NewCredential> MakeTeamToken(const std::string& team, std::vector<Scope> scopes,
                                            std::optional<std::chrono::seconds> lifetime, const Clock& clock);
absl::StatusOr<NewCredential> MakeWorkerCredential(const std::string& pool, std::vector<std::string> roles,
                                                   std::vector<std::string> toolchains,
                                                   std::optional<std::chrono::seconds> lifetime, const Clock& clock);

}  // namespace hipforge::server
