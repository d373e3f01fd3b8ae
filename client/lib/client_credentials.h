#pragma once
// Where migrate-cli finds its credential and TLS settings. Precedence per setting: flag > environment
// (MIGRATE_TOKEN, MIGRATE_TOKEN_FILE, MIGRATE_TLS_CA, MIGRATE_TLS_SERVER_NAME, MIGRATE_TLS_CERT,
// MIGRATE_TLS_KEY) > the per-user config file ($XDG_CONFIG_HOME/hipforge/config.yaml, else
// ~/.config/hipforge/config.yaml; keys token, token-file, tls-ca, tls-server-name, tls-cert, tls-key).
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "common/grpc_channel.h"

namespace hipforge::client {

struct CredentialFlags {
  std::string token;
  std::string token_file;
  std::string tls_ca;
  std::string tls_server_name;
  std::string tls_cert;
  std::string tls_key;
};

// The config file path for this user (may not exist).
std::filesystem::path UserConfigPath();

// Errors name the flag, variable or file that was wrong, never a secret's value.
absl::StatusOr<ChannelSecurity> ResolveChannelSecurity(const CredentialFlags& flags);

}  // namespace hipforge::client
