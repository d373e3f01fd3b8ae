#pragma once
// Credential values: "hft_<id>_<secret>" (team API token) or "hfw_<id>_<secret>" (worker credential).
// "hft_<id>" is the visible, non-secret part (listed, logged, audited); the 48 hex digits of secret
// (192 random bits) are shown once at creation and stored only as their SHA-256.
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace hipforge::server {

enum class CredentialKind { kTeam, kWorker };

struct GeneratedToken {
  std::string id;             // "hft_0123456789ab"
  std::string value;          // the whole token: print once, never store
  std::string secret_sha256;  // what the database keeps
};

struct ParsedToken {
  CredentialKind kind = CredentialKind::kTeam;
  std::string id;
  std::string secret;
};

// Random bytes from OpenSSL's CSPRNG.
absl::StatusOr<GeneratedToken> GenerateToken(CredentialKind kind);
// InvalidArgument (without echoing the value) when `value` is not shaped like a token.
absl::StatusOr<ParsedToken> ParseToken(std::string_view value);
std::string SecretSha256(std::string_view secret);
// Constant-time comparison of two equal-length hex digests.
bool DigestsEqual(std::string_view a, std::string_view b);

}  // namespace hipforge::server
