#pragma once
// Who did what, kept in the database (audit_events) and readable by admins: submissions, report and
// artifact reads, cancels, token creation and revocation, and refused requests.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "server/auth/caller.h"
#include "server/auth/credential_store.h"

namespace hipforge::server {

class AuditTrail {
 public:
  virtual ~AuditTrail() = default;
  // Best effort: a failure to record is logged, never turned into a refused request.
  virtual void Record(const Caller& caller, std::string_view action, std::string_view target,
                      const absl::Status& outcome) = 0;
  // One team's events, newest first.
  virtual absl::StatusOr<std::vector<AuditEvent>> List(const std::string& team, int64_t before_seq, int limit) = 0;
};

class CredentialStoreAuditTrail final : public AuditTrail {
 public:
  CredentialStoreAuditTrail(CredentialStore& store, const Clock& clock) : store_(store), clock_(clock) {}
  void Record(const Caller& caller, std::string_view action, std::string_view target,
              const absl::Status& outcome) override;
  absl::StatusOr<std::vector<AuditEvent>> List(const std::string& team, int64_t before_seq, int limit) override;

 private:
  CredentialStore& store_;
  const Clock& clock_;
};

}  // namespace hipforge::server
