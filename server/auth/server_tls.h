#pragma once
// Listener security of migrate-server: TLS from certificate files that are re-read while the server
// runs (rotate by replacing the files; no restart), optionally requiring client certificates
// signed by a CA (mTLS). Plain TCP only on loopback unless the operator says --insecure.
#include <chrono>
#include <memory>
#include <string>

#include <grpcpp/security/server_credentials.h>

#include "absl/status/statusor.h"

namespace hipforge::server {

struct ServerTlsOptions {
  std::string cert_file;       // PEM certificate chain
  std::string key_file;        // PEM private key
  std::string client_ca_file;  // non-empty: clients must present a certificate signed by this CA
  std::chrono::seconds reload_interval{10};

  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

// Checks the files now (clear errors at start-up) and returns credentials that re-read them every
// reload_interval.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const ServerTlsOptions& options);

// True for 127.0.0.0/8, [::1], localhost and unix: addresses.
bool IsLoopbackListenAddress(const std::string& listen);

}  // namespace hipforge::server
