#include "server/server_config.h"

#include <cstdlib>

#include <yaml-cpp/yaml.h>
#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/redact.h"
#include "common/secret_source.h"
#include "server/auth/server_tls.h"

namespace hipforge::server {
namespace {

// Every setting once, with its flag, environment variable and YAML key derived from one name.
struct Setting {
  std::string name;  // flag "--<name>", env "MIGRATE_<NAME>", YAML key "<name>"
  std::string help;
  std::function<void(const std::string&)> assign;
};

std::string EnvName(const std::string& name) {
  std::string env = "MIGRATE_";
  for (char c : name) env += c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return env;
}

uint64_t ParseBytes(const std::string& text) {
  // Accepts plain numbers and K/M/G suffixes (binary).
  size_t used = 0;
  const uint64_t number = std::stoull(text, &used);
  const std::string suffix = text.substr(used);
  if (suffix.empty()) return number;
  switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
    case 'K': return number << 10;
    case 'M': return number << 20;
    case 'G': return number << 30;
    default: throw std::invalid_argument("unknown size suffix " + suffix);
  }
}

std::vector<Setting> Settings(ServerConfig& c) {
  auto ms = [](std::chrono::milliseconds& field) {
    return [&field](const std::string& v) { field = std::chrono::milliseconds(std::stoll(v)); };
  };
  return {
      {"listen", "gRPC listen address HOST:PORT", [&c](const std::string& v) { c.listen = v; }},
      {"data-dir", "data directory (artifacts, embedded PostgreSQL, scratch)",
       [&c](const std::string& v) { c.data_dir = v; }},
      {"database-url", "PostgreSQL URL; empty: embedded cluster in the data dir",
       [&c](const std::string& v) { c.database_url = v; }},
      {"database-schema", "PostgreSQL schema", [&c](const std::string& v) { c.database_schema = v; }},
      {"artifact-store", "where artifacts live: local (<data-dir>/artifacts) or postgres (chunks in the database)",
       [&c](const std::string& v) {
         if (v != "local" && v != "postgres") throw std::invalid_argument("expected local or postgres");
         c.artifact_store = v;
       }},
      {"local-workers", "in-process translate workers", [&c](const std::string& v) { c.local_workers = std::stoi(v); }},
      {"local-worker-roles", "roles of local workers, comma separated",
       [&c](const std::string& v) { c.local_worker_roles = absl::StrSplit(v, ',', absl::SkipEmpty()); }},
      {"max-upload-bytes", "largest accepted archive (K/M/G suffix)",
       [&c](const std::string& v) { c.limits.upload.max_compressed_bytes = ParseBytes(v); }},
      {"max-unpacked-bytes", "largest unpacked repository (K/M/G suffix)",
       [&c](const std::string& v) { c.limits.upload.max_uncompressed_bytes = ParseBytes(v); }},
      {"max-files", "most entries in an uploaded archive",
       [&c](const std::string& v) { c.limits.upload.max_files = std::stoull(v); }},
      {"max-compression-ratio", "decompression-bomb guard (unpacked/packed)",
       [&c](const std::string& v) { c.limits.upload.max_compression_ratio = std::stod(v); }},
      {"max-artifact-bytes", "largest artifact a worker may upload (K/M/G suffix)",
       [&c](const std::string& v) { c.limits.max_artifact_bytes = static_cast<int64_t>(ParseBytes(v)); }},
      {"lease-ms", "task lease duration", ms(c.limits.lease_duration)},
      {"orphan-artifact-grace-ms", "age after which an artifact no job refers to is removed",
       ms(c.limits.orphan_artifact_grace)},
      {"max-lease-wait-ms", "cap on worker long polls", ms(c.limits.max_lease_wait)},
      {"rescue-interval-ms", "how often expired leases are rescued", ms(c.rescue_interval)},
      {"shutdown-grace-ms", "on SIGTERM, how long in-process tasks may still finish before they are given back",
       ms(c.shutdown_grace)},
      {"max-attempts", "task attempts before dead-lettering",
       [&c](const std::string& v) { c.max_attempts = std::stoi(v); }},
      {"log-level", "trace|debug|info|warn|error", [&c](const std::string& v) { c.log_level = v; }},
      {"embedded-durable", "fsync in the embedded cluster (true|false)",
       [&c](const std::string& v) { c.embedded_durable = v != "false" && v != "0"; }},
      {"port-file", "write the bound port to this file", [&c](const std::string& v) { c.port_file = v; }},
      {"http-listen", "dashboard HTTP listen address HOST:PORT (port 0: a free port; empty: no HTTP)",
       [&c](const std::string& v) { c.http_listen = v; }},
      {"http-port-file", "write the bound HTTP port to this file (default: <port-file>.http)",
       [&c](const std::string& v) { c.http_port_file = v; }},
      {"web-root", "directory of the built web UI (default: <binary dir>/../share/hipforge/web)",
       [&c](const std::string& v) { c.web_root = v; }},
      {"database-url-file", "file holding the PostgreSQL URL (a mounted secret)",
       [&c](const std::string& v) {
         absl::StatusOr<std::string> url = ReadSecretFile(v);
         if (!url.ok()) throw std::invalid_argument(std::string(url.status().message()));
         c.database_url = *url;
       }},
      {"tls-cert", "PEM certificate chain: serve TLS (re-read while running)",
       [&c](const std::string& v) { c.tls_cert = v; }},
      {"tls-key", "PEM private key of --tls-cert", [&c](const std::string& v) { c.tls_key = v; }},
      {"tls-client-ca", "PEM CA: clients must present a certificate it signed (mTLS)",
       [&c](const std::string& v) { c.tls_client_ca = v; }},
      {"tls-reload-seconds", "how often certificate files are re-read",
       [&c](const std::string& v) { c.tls_reload_seconds = std::stoi(v); }},
      {"insecure", "allow plain TCP on a non-loopback address (true|false)",
       [&c](const std::string& v) { c.insecure = v == "true" || v == "1"; }},
  };
}

absl::Status Assign(const Setting& setting, const std::string& value, const std::string& origin) {
  try {
    setting.assign(value);
  } catch (const std::exception& e) {
    // The value may be a secret (a database URL with a password): never echo it whole.
    return absl::InvalidArgumentError(
        absl::StrCat(origin, ": bad value '", RedactSecrets(value), "' for ", setting.name, ": ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ApplyConfigFile(const std::filesystem::path& path, ServerConfig& config) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path.string());
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("config file ", path.string(), ": ", e.what()));
  }
  if (!root.IsMap()) return absl::InvalidArgumentError(absl::StrCat("config file ", path.string(), " is not a map"));
  std::vector<Setting> settings = Settings(config);
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    auto it = std::find_if(settings.begin(), settings.end(), [&](const Setting& s) { return s.name == key; });
    if (it == settings.end()) {
      return absl::InvalidArgumentError(absl::StrCat("config file ", path.string(), ": unknown key '", key, "'"));
    }
    if (absl::Status status = Assign(*it, entry.second.as<std::string>(), path.string()); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<ServerConfig> LoadServerConfig(int argc, char** argv) {
  ServerConfig config;
  config.http_listen = "127.0.0.1:8080";
  std::error_code exe_error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", exe_error);
  if (!exe_error) config.web_root = (exe.parent_path() / ".." / "share" / "hipforge" / "web").lexically_normal();
  std::vector<Setting> settings = Settings(config);

  // The config file is the lowest layer, so find it first.
  CLI::App app{"migrate-server: hipforge gRPC server, scheduler and store"};
  app.allow_extras(false);
  std::string config_file;
  if (const char* env = std::getenv("MIGRATE_SERVER_CONFIG"); env != nullptr) config_file = env;
  app.add_option("--config", config_file, "YAML config file (env MIGRATE_SERVER_CONFIG)");
  std::map<std::string, std::string> flag_values;
  for (const Setting& setting : settings) {
    CLI::Option* option = app.add_option("--" + setting.name, flag_values[setting.name],
                                         absl::StrCat(setting.help, " (env ", EnvName(setting.name), ")"));
    if (setting.name == "insecure") option->expected(0, 1);  // a bare --insecure means true
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return absl::CancelledError(app.help());
  } catch (const CLI::ParseError& e) {
    return absl::InvalidArgumentError(e.what());
  }
  if (!config_file.empty()) {
    if (absl::Status status = ApplyConfigFile(config_file, config); !status.ok()) return status;
  }
  for (const Setting& setting : settings) {
    if (const char* env = std::getenv(EnvName(setting.name).c_str()); env != nullptr && *env != '\0') {
      if (absl::Status status = Assign(setting, env, EnvName(setting.name)); !status.ok()) return status;
    }
  }
  for (const Setting& setting : settings) {
    if (app.get_option("--" + setting.name)->count() > 0) {
      const std::string& value = flag_values[setting.name];
      const std::string given = value.empty() && setting.name == "insecure" ? "true" : value;
      if (absl::Status status = Assign(setting, given, "--" + setting.name); !status.ok()) {
        return status;
      }
    }
  }
  if (config.local_workers < 0) return absl::InvalidArgumentError("--local-workers must be >= 0");
  if (config.tls_cert.empty() != config.tls_key.empty()) {
    return absl::InvalidArgumentError("TLS needs both --tls-cert and --tls-key");
  }
  if (!config.tls_client_ca.empty() && config.tls_cert.empty()) {
    return absl::InvalidArgumentError("--tls-client-ca needs --tls-cert and --tls-key");
  }
  if (config.tls_cert.empty() && !config.insecure && !IsLoopbackListenAddress(config.listen)) {
    return absl::InvalidArgumentError(absl::StrCat("listening on ", config.listen,
                                                   " without TLS exposes tokens and code to the network: give "
                                                   "--tls-cert/--tls-key, or --insecure true to accept that"));
  }
  if (config.limits.lease_duration < std::chrono::milliseconds(100)) {
    return absl::InvalidArgumentError("--lease-ms must be at least 100");
  }
  return config;
}

}  // namespace hipforge::server
