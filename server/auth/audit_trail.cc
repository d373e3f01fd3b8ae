#include "server/auth/audit_trail.h"

#include <spdlog/spdlog.h>

#include "common/redact.h"

namespace hipforge::server {

void CredentialStoreAuditTrail::Record(const Caller& caller, std::string_view action, std::string_view target,
                                       const absl::Status& outcome) {
  AuditEvent event;
  event.at = clock_.Now();
  event.actor = caller.token_id;
  event.team = caller.team;
  const bool denied =
      outcome.code() == absl::StatusCode::kPermissionDenied || outcome.code() == absl::StatusCode::kUnauthenticated;
  event.action = denied ? "denied" : std::string(action);
  event.target = std::string(target);
  event.outcome = outcome.ok() ? "ok" : "refused";
  if (!outcome.ok()) event.detail = RedactSecrets(std::string(outcome.message()));
  if (denied) event.detail = std::string(action) + ": " + event.detail;
  if (absl::Status stored = store_.AppendAudit(event); !stored.ok()) {
    spdlog::warn("[job=-] audit event not recorded ({} {} by {}): {}", event.action, event.target, event.actor,
                 stored.ToString());
  }
}

absl::StatusOr<std::vector<AuditEvent>> CredentialStoreAuditTrail::List(const std::string& team, int64_t before_seq,
                                                                        int limit) {
  return store_.ListAudit(team, before_seq, limit);
}

}  // namespace hipforge::server
