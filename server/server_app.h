#pragma once
// migrate-server assembled: store (external or embedded PostgreSQL), artifact store, domain
// services, gRPC server, lease rescuer and optional in-process workers. main.cc and tests use it.
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/server.h>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/process.h"
#include "server/auth/caller.h"
#include "server/auth/credential_store.h"
#include "server/server_config.h"
#include "server/store/job_store.h"

namespace hipforge::server {

class ServerApp {
 public:
  // Starts everything; returns once the server accepts calls.
  // `authenticator` checks the dashboard's bearer tokens; without one the HTTP front end does not start.
  static absl::StatusOr<std::unique_ptr<ServerApp>> Start(const ServerConfig& config, ProcessLauncher& launcher,
                                                          const Clock& clock,
                                                          const CallerAuthenticator* authenticator = nullptr);
  ~ServerApp();  // Shutdown()

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  JobStore& store() { return *store_; }
  int http_port() const { return http_port_; }  // 0 without an HTTP listener
  // Team API tokens, worker credentials and the audit trail (what `migrate-server token` manages).
  CredentialStore& credentials();
  // Stops local workers (a task in flight gets config.shutdown_grace, then is given back), the gRPC
  // server (in-flight calls get a short grace period), the rescuer, the store and the embedded
  // PostgreSQL. Idempotent.
  void Shutdown();
  // After Shutdown: a worker thread was left inside its runner (its task given back). The process
  // must then end with _Exit: static destructors would run under that thread.
  bool workers_left_running() const;

 private:
  struct Parts;
  explicit ServerApp(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
  JobStore* store_ = nullptr;
  int port_ = 0;
  int http_port_ = 0;
};

}  // namespace hipforge::server
