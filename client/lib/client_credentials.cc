#include "client/lib/client_credentials.h"

#include <sys/stat.h>

#include <cstdlib>
#include <iostream>

#include <yaml-cpp/yaml.h>

#include "common/secret_source.h"

namespace hipforge::client {
namespace fs = std::filesystem;

namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

// key -> value of the config file; empty map when it does not exist.
absl::StatusOr<std::map<std::string, std::string>> ReadConfigFile(const fs::path& path) {
  std::map<std::string, std::string> values;
  std::error_code ec;
  if (!fs::exists(path, ec)) return values;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError("config file " + path.string() + " is not valid YAML");
  }
  if (root.IsNull()) return values;
  if (!root.IsMap()) return absl::InvalidArgumentError("config file " + path.string() + " is not a map");
  static const char* kKeys[] = {"token", "token-file", "tls-ca", "tls-server-name", "tls-cert", "tls-key"};
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      return absl::InvalidArgumentError("config file " + path.string() + ": unknown key '" + key + "'");
    }
    values[key] = entry.second.as<std::string>();
  }
  if (values.count("token") != 0) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && (info.st_mode & 077) != 0) {
      return absl::PermissionDeniedError("config file " + path.string() +
                                         " holds a token but is readable by others; chmod 600 it");
    }
  }
  return values;
}

}  // namespace

fs::path UserConfigPath() {
  const std::string xdg = Env("XDG_CONFIG_HOME");
  if (!xdg.empty()) return fs::path(xdg) / "hipforge" / "config.yaml";
  const std::string home = Env("HOME");
  return fs::path(home.empty() ? "." : home) / ".config" / "hipforge" / "config.yaml";
}

absl::StatusOr<ChannelSecurity> ResolveChannelSecurity(const CredentialFlags& flags) {
  absl::StatusOr<std::map<std::string, std::string>> file = ReadConfigFile(UserConfigPath());
  if (!file.ok()) return file.status();
  auto pick = [&](const std::string& flag, const char* env, const char* key) {
    if (!flag.empty()) return flag;
    if (std::string value = Env(env); !value.empty()) return value;
    auto it = file->find(key);
    return it != file->end() ? it->second : std::string();
  };
  ChannelSecurity security;
  if (!flags.token.empty()) {
    security.token = flags.token;
  } else if (!flags.token_file.empty()) {
    absl::StatusOr<std::string> token = ReadSecretFile(flags.token_file);
    if (!token.ok()) return token.status();
    security.token = *token;
  } else {
    absl::StatusOr<std::optional<std::string>> env = SecretFromEnvironment("MIGRATE_TOKEN");
    if (!env.ok()) return env.status();
    if (env->has_value()) {
      security.token = **env;
    } else if (auto it = file->find("token"); it != file->end()) {
      security.token = it->second;
    } else if (auto path = file->find("token-file"); path != file->end()) {
      absl::StatusOr<std::string> token = ReadSecretFile(path->second);
      if (!token.ok()) return token.status();
      security.token = *token;
    }
  }
  security.tls_ca_file = pick(flags.tls_ca, "MIGRATE_TLS_CA", "tls-ca");
  security.tls_server_name = pick(flags.tls_server_name, "MIGRATE_TLS_SERVER_NAME", "tls-server-name");
  security.tls_cert_file = pick(flags.tls_cert, "MIGRATE_TLS_CERT", "tls-cert");
  security.tls_key_file = pick(flags.tls_key, "MIGRATE_TLS_KEY", "tls-key");
  return security;
}

}  // namespace hipforge::client
