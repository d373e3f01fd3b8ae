#include "server/auth/server_tls.h"

#include <fstream>
#include <sstream>

#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_credentials_options.h>

#include "absl/strings/str_cat.h"

namespace hipforge::server {
namespace {

absl::Status CheckPem(const std::string& path, const char* what, const char* marker) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", what, " ", path));
  std::ostringstream content;
  content << in.rdbuf();
  if (content.str().find(marker) == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(what, " ", path, " holds no PEM ", marker));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(const ServerTlsOptions& options) {
  if (options.cert_file.empty() || options.key_file.empty()) {
    return absl::InvalidArgumentError("TLS needs both --tls-cert and --tls-key");
  }
  if (absl::Status ok = CheckPem(options.cert_file, "--tls-cert", "CERTIFICATE"); !ok.ok()) return ok;
  if (absl::Status ok = CheckPem(options.key_file, "--tls-key", "PRIVATE KEY"); !ok.ok()) return ok;
  if (!options.client_ca_file.empty()) {
    if (absl::Status ok = CheckPem(options.client_ca_file, "--tls-client-ca", "CERTIFICATE"); !ok.ok()) return ok;
  }
  const unsigned interval = static_cast<unsigned>(std::max<int64_t>(1, options.reload_interval.count()));
  auto provider = options.client_ca_file.empty()
                      ? std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                            options.key_file, options.cert_file, interval)
                      : std::make_shared<grpc::experimental::FileWatcherCertificateProvider>(
                            options.key_file, options.cert_file, options.client_ca_file, interval);
  grpc::experimental::TlsServerCredentialsOptions tls(provider);
  tls.watch_identity_key_cert_pairs();
  if (options.client_ca_file.empty()) {
    tls.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  } else {
    tls.watch_root_certs();
    tls.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  }
  return grpc::experimental::TlsServerCredentials(tls);
}

bool IsLoopbackListenAddress(const std::string& listen) {
  if (listen.rfind("unix:", 0) == 0) return true;
  std::string host = listen;
  if (!host.empty() && host.front() == '[') {
    host = host.substr(1, host.find(']') - 1);
  } else if (size_t colon = host.rfind(':'); colon != std::string::npos) {
    host = host.substr(0, colon);
  }
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace hipforge::server
