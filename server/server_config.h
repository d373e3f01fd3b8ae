#pragma once
// migrate-server configuration. Precedence: command-line flag > environment variable > config
// file (YAML, --config or MIGRATE_SERVER_CONFIG) > default.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "server/service_limits.h"

namespace hipforge::server {

struct ServerConfig {
  std::string listen = "127.0.0.1:50051";  // port 0: pick a free port (printed at start)
  std::filesystem::path data_dir = "./hipforge-data";
  std::string database_url;  // empty: embedded PostgreSQL in <data_dir>/pg
  std::string database_schema = "hipforge";
  // Where artifacts live: "local" (<data_dir>/artifacts, one server) or "postgres" (chunks in the database, so
  // several servers on one database serve every artifact without a shared disk).
  std::string artifact_store = "local";
  int local_workers = 0;  // in-process translate workers (gRPC over loopback)
  std::vector<std::string> local_worker_roles = {"translate"};
  ServiceLimits limits;
  std::chrono::milliseconds rescue_interval{std::chrono::seconds(5)};
  // SIGTERM: in-process workers' tasks get this long to finish, then go back to the queue (not
  // counted as an attempt) and the server stops without waiting for their runners.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(10)};
  int max_attempts = 3;
  std::string log_level = "info";
  bool embedded_durable = true;     // false: embedded PostgreSQL without fsync (tests, benchmarks)
  std::filesystem::path port_file;  // when set, the bound port is written there once listening
  // Dashboard HTTP/JSON API and web UI. Empty: no HTTP listener (the struct's default, for in-process
  // tests); migrate-server's flag default is 127.0.0.1:8080. Port 0 picks a free port.
  std::string http_listen;
  // The bound HTTP port is written here once listening; default <port_file>.http when port_file is set.
  std::filesystem::path http_port_file;
  std::filesystem::path web_root;  // built web UI; migrate-server defaults to <binary dir>/../share/hipforge/web
  // TLS on the listener (certificates re-read every tls_reload_seconds); a client CA requires client
  // certificates (mTLS). Without TLS only loopback is served, unless `insecure`.
  std::string tls_cert;
  std::string tls_key;
  std::string tls_client_ca;
  int tls_reload_seconds = 10;
  bool insecure = false;
};

// Parses argv (CLI11) over environment variables (MIGRATE_*) over the config file. Returns
// InvalidArgument with the usage problem; `--help` yields Cancelled with the help text as message.
absl::StatusOr<ServerConfig> LoadServerConfig(int argc, char** argv);

// Loads only the YAML file into `config` (keys mirror the long flag names, e.g. `data-dir`).
absl::Status ApplyConfigFile(const std::filesystem::path& path, ServerConfig& config);

}  // namespace hipforge::server
