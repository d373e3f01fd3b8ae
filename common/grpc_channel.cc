#include "common/grpc_channel.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <grpc/grpc.h>

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

struct HostPort {
  std::string host;
  std::string port;
};

// "host:port" or "[v6]:port"; a scheme ("dns:", "unix:") has no place in a server list.
absl::StatusOr<HostPort> ParseHostPort(const std::string& address) {
  const auto bad = [&] { return absl::InvalidArgumentError("server list entry '" + address + "' is not HOST:PORT"); };
  HostPort parsed;
  size_t colon = 0;
  if (!address.empty() && address.front() == '[') {
    const size_t close = address.find(']');
    if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') return bad();
    parsed.host = address.substr(1, close - 1);
    colon = close + 1;
  } else {
    colon = address.rfind(':');
    if (colon == std::string::npos || address.find(':') != colon || address.find('/') != std::string::npos) {
      return bad();
    }
    parsed.host = address.substr(0, colon);
  }
  parsed.port = address.substr(colon + 1);
  if (parsed.host.empty() || parsed.port.empty() ||
      !std::all_of(parsed.port.begin(), parsed.port.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return bad();
  }
  return parsed;
}

// A host's addresses per family, each once, in the resolver's order.
struct Resolved {
  std::vector<std::string> v4;  // "1.2.3.4:port"
  std::vector<std::string> v6;  // "[::1]:port"
};

void AddOnce(std::vector<std::string>& list, std::string item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(std::move(item));
}

absl::StatusOr<Resolved> Resolve(const HostPort& address) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int error = ::getaddrinfo(address.host.c_str(), address.port.c_str(), &hints, &found); error != 0) {
    return absl::NotFoundError("cannot resolve server " + address.host + ": " + ::gai_strerror(error));
  }
  Resolved resolved;
  for (const addrinfo* entry = found; entry != nullptr; entry = entry->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    if (entry->ai_family == AF_INET) {
      ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(entry->ai_addr)->sin_addr, text, sizeof text);
      AddOnce(resolved.v4, std::string(text) + ":" + address.port);
    } else if (entry->ai_family == AF_INET6) {
      ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(entry->ai_addr)->sin6_addr, text, sizeof text);
      AddOnce(resolved.v6, "[" + std::string(text) + "]:" + address.port);
    }
  }
  ::freeaddrinfo(found);
  return resolved;
}

std::string JoinAddresses(const std::vector<std::string>& addresses) {
  std::string joined;
  for (const std::string& address : addresses) joined += (joined.empty() ? "" : ",") + address;
  return joined;
}

}  // namespace

std::vector<std::string> SplitServerList(const std::string& servers) {
  std::vector<std::string> addresses;
  std::stringstream in(servers);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t begin = item.find_first_not_of(" \t\n");
    if (begin == std::string::npos) continue;
    addresses.push_back(item.substr(begin, item.find_last_not_of(" \t\n") - begin + 1));
  }
  return addresses;
}

absl::StatusOr<std::string> ChannelTarget(const std::string& servers) {
  const std::vector<std::string> addresses = SplitServerList(servers);
  if (addresses.empty()) return absl::InvalidArgumentError("no server address");
  if (addresses.size() == 1) return addresses.front();
  // One list per family, in the order given: pick_first tries them in that order. gRPC's ipv4:/ipv6: targets
  // take one family, so the one every host has is used (IPv4 first: "localhost" is both).
  std::vector<std::string> v4;
  std::vector<std::string> v6;
  bool all_v4 = true;
  bool all_v6 = true;
  std::vector<HostPort> parsed;  // every entry checked before any is looked up
  for (const std::string& address : addresses) {
    absl::StatusOr<HostPort> entry = ParseHostPort(address);
    if (!entry.ok()) return entry.status();
    parsed.push_back(*std::move(entry));
  }
  for (const HostPort& address : parsed) {
    absl::StatusOr<Resolved> resolved = Resolve(address);
    if (!resolved.ok()) return resolved.status();
    all_v4 = all_v4 && !resolved->v4.empty();
    all_v6 = all_v6 && !resolved->v6.empty();
    for (std::string& item : resolved->v4) AddOnce(v4, std::move(item));
    for (std::string& item : resolved->v6) AddOnce(v6, std::move(item));
  }
  if (all_v4) return "ipv4:" + JoinAddresses(v4);
  if (all_v6) return "ipv6:" + JoinAddresses(v6);
  return absl::InvalidArgumentError(
      "server list '" + servers + "' mixes hosts with only IPv4 and only IPv6 addresses; give addresses of one family");
}

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const std::string& target, const ChannelSecurity& security,
                                                           grpc::ChannelArguments arguments) {
  std::string channel_target = target;
  std::string first_host;
  if (target.find(',') != std::string::npos) {
    absl::StatusOr<std::string> resolved = ChannelTarget(target);
    if (!resolved.ok()) return resolved.status();
    channel_target = *resolved;
    if (const std::vector<std::string> servers = SplitServerList(target); servers.size() > 1) {
      // The authority (and TLS name) a single-address channel would have used: the first server's.
      arguments.SetString(GRPC_ARG_DEFAULT_AUTHORITY, servers.front());
      first_host = ParseHostPort(servers.front())->host;
    }
  }
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
    } else if (!first_host.empty()) {
      arguments.SetSslTargetNameOverride(first_host);
    }
  }
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> interceptors;
  if (!security.token.empty()) interceptors.push_back(std::make_unique<BearerInterceptorFactory>(security.token));
  return grpc::experimental::CreateCustomChannelWithInterceptors(channel_target, credentials, arguments,
                                                                 std::move(interceptors));
}

}  // namespace hipforge
