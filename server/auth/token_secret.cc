#include "server/auth/token_secret.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "absl/strings/str_cat.h"
#include "common/sha256.h"

namespace hipforge::server {
namespace {

constexpr size_t kIdHexDigits = 12;
constexpr size_t kSecretHexDigits = 48;

absl::StatusOr<std::string> RandomHex(size_t digits) {
  std::string bytes(digits / 2, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
    return absl::InternalError("no random bytes from OpenSSL");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : bytes) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return hex;
}

bool IsLowerHex(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

absl::StatusOr<GeneratedToken> GenerateToken(CredentialKind kind) {
  absl::StatusOr<std::string> id = RandomHex(kIdHexDigits);
  if (!id.ok()) return id.status();
  absl::StatusOr<std::string> secret = RandomHex(kSecretHexDigits);
  if (!secret.ok()) return secret.status();
  GeneratedToken token;
  token.id = absl::StrCat(kind == CredentialKind::kTeam ? "hft_" : "hfw_", *id);
  token.value = absl::StrCat(token.id, "_", *secret);
  token.secret_sha256 = SecretSha256(*secret);
  return token;
}

absl::StatusOr<ParsedToken> ParseToken(std::string_view value) {
  const absl::Status malformed = absl::InvalidArgumentError(
      "malformed token (expected hft_<12 hex>_<48 hex> for a team token or hfw_... for a worker credential)");
  if (value.size() != 4 + kIdHexDigits + 1 + kSecretHexDigits) return malformed;
  ParsedToken token;
  if (value.substr(0, 4) == "hft_") {
    token.kind = CredentialKind::kTeam;
  } else if (value.substr(0, 4) == "hfw_") {
    token.kind = CredentialKind::kWorker;
  } else {
    return malformed;
  }
  const std::string_view id_hex = value.substr(4, kIdHexDigits);
  const std::string_view secret = value.substr(4 + kIdHexDigits + 1);
  if (value[4 + kIdHexDigits] != '_' || !IsLowerHex(id_hex) || !IsLowerHex(secret)) return malformed;
  token.id = std::string(value.substr(0, 4 + kIdHexDigits));
  token.secret = std::string(secret);
  return token;
}

std::string SecretSha256(std::string_view secret) { return Sha256Hex(secret); }

bool DigestsEqual(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace hipforge::server
