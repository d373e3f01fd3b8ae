#include "server/auth/token_authenticator.h"

#include <cctype>

#include "absl/strings/str_cat.h"

namespace hipforge::server {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

bool StartsWithIgnoringCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::string_view> BearerValue(std::string_view authorization) {
  authorization = Trim(authorization);
  if (authorization.empty()) {
    return absl::UnauthenticatedError(
        "no API token: send 'authorization: Bearer <token>' (migrate-cli --token, MIGRATE_TOKEN or the config file; "
        "an admin creates one with 'migrate-server token create')");
  }
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() <= kScheme.size() || !StartsWithIgnoringCase(authorization, kScheme)) {
    return absl::UnauthenticatedError("the authorization metadata must be 'Bearer <token>'");
  }
  return Trim(authorization.substr(kScheme.size()));
}

absl::StatusOr<CredentialRecord> TokenAuthenticator::Verify(std::string_view authorization) const {
  absl::StatusOr<std::string_view> value = BearerValue(authorization);
  if (!value.ok()) return value.status();
  absl::StatusOr<ParsedToken> token = ParseToken(*value);
  if (!token.ok()) return absl::UnauthenticatedError(absl::StrCat("invalid API token: ", token.status().message()));
  absl::StatusOr<std::optional<CredentialRecord>> record = store_.Find(token->id);
  if (!record.ok()) {
    return absl::UnavailableError(absl::StrCat("cannot check the token now: ", record.status().message()));
  }
  // Unknown id and wrong secret read the same: the id alone proves nothing.
  if (!record->has_value() || !DigestsEqual((*record)->secret_sha256, SecretSha256(token->secret))) {
    return absl::UnauthenticatedError(absl::StrCat("invalid API token ", token->id, ": unknown or wrong secret"));
  }
  const CredentialTime now = clock_.Now();
  if ((*record)->revoked_at) return absl::UnauthenticatedError(absl::StrCat("token ", token->id, " was revoked"));
  if ((*record)->expires_at && *(*record)->expires_at <= now) {
    return absl::UnauthenticatedError(absl::StrCat("token ", token->id, " expired"));
  }
  store_.TouchLastUsed(token->id, now).IgnoreError();  // best effort: a failed touch never refuses a call
  return **std::move(record);
}

absl::StatusOr<Caller> TokenAuthenticator::Authenticate(std::string_view authorization) const {
  absl::StatusOr<CredentialRecord> record = Verify(authorization);
  if (!record.ok()) return record.status();
  if (record->kind != CredentialKind::kTeam) {
    return absl::PermissionDeniedError(
        absl::StrCat(record->id, " is a worker credential; MigrationService takes team API tokens"));
  }
  return Caller{record->team, record->scopes, record->id};
}

absl::StatusOr<WorkerIdentity> TokenAuthenticator::AuthenticateWorker(std::string_view authorization) const {
  absl::StatusOr<CredentialRecord> record = Verify(authorization);
  if (!record.ok()) return record.status();
  if (record->kind != CredentialKind::kWorker) {
    return absl::PermissionDeniedError(absl::StrCat(record->id,
                                                    " is a team API token; WorkerService takes worker credentials "
                                                    "('migrate-server token create --pool ...')"));
  }
  return WorkerIdentity{record->pool, record->roles, record->toolchains, record->id};
}

}  // namespace hipforge::server
