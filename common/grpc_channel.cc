#include "common/grpc_channel.h"

#include <fstream>
#include <sstream>

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/client_interceptor.h>

namespace hipforge {
namespace {

// Adds the bearer metadata to every call. An interceptor, not CallCredentials: gRPC drops call
// credentials on insecure channels, and loopback without TLS must still authenticate.
class BearerInterceptor final : public grpc::experimental::Interceptor {
 public:
  explicit BearerInterceptor(const std::string& value) : value_(value) {}
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(grpc::experimental::InterceptionHookPoints::PRE_SEND_INITIAL_METADATA)) {
      methods->GetSendInitialMetadata()->insert({"authorization", value_});
    }
    methods->Proceed();
  }

 private:
  const std::string& value_;
};

class BearerInterceptorFactory final : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  explicit BearerInterceptorFactory(std::string token) : value_("Bearer " + std::move(token)) {}
  grpc::experimental::Interceptor* CreateClientInterceptor(grpc::experimental::ClientRpcInfo*) override {
    return new BearerInterceptor(value_);
  }

 private:
  const std::string value_;  // lives as long as the channel that owns this factory
};

absl::StatusOr<std::string> ReadPem(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(std::string("cannot read ") + what + " " + path);
  std::ostringstream content;
  content << in.rdbuf();
  if (content.str().find("-----BEGIN") == std::string::npos) {
    return absl::InvalidArgumentError(std::string(what) + " " + path + " is not PEM");
  }
  return content.str();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const std::string& target, const ChannelSecurity& security,
                                                           grpc::ChannelArguments arguments) {
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (security.UsesTls()) {
    grpc::SslCredentialsOptions ssl;
    if (!security.tls_ca_file.empty()) {
      absl::StatusOr<std::string> ca = ReadPem(security.tls_ca_file, "TLS CA file");
      if (!ca.ok()) return ca.status();
      ssl.pem_root_certs = *ca;
    }
    if (!security.tls_cert_file.empty() || !security.tls_key_file.empty()) {
      if (security.tls_cert_file.empty() || security.tls_key_file.empty()) {
        return absl::InvalidArgumentError("a TLS client certificate needs both the certificate and the key file");
      }
      absl::StatusOr<std::string> cert = ReadPem(security.tls_cert_file, "TLS client certificate");
      if (!cert.ok()) return cert.status();
      absl::StatusOr<std::string> key = ReadPem(security.tls_key_file, "TLS client key");
      if (!key.ok()) return key.status();
      ssl.pem_cert_chain = *cert;
      ssl.pem_private_key = *key;
    }
    credentials = grpc::SslCredentials(ssl);
    if (!security.tls_server_name.empty()) {
      arguments.SetSslTargetNameOverride(security.tls_server_name);
    }
  }
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  if (!security.token.empty()) interceptors.push_back(std::make_unique<BearerInterceptorFactory>(security.token));
  return grpc::experimental::CreateCustomChannelWithInterceptors(target, credentials, arguments,
                                                                  std::move(interceptors));
}

}  // namespace hipforge
