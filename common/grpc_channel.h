#pragma once
// One way to open a channel to migrate-server, for the CLI, the worker, in-process workers, tests
// and benchmarks: TLS when asked for (server CA, name override, client certificate for mTLS) and the
// credential sent as `authorization: Bearer <token>` on every call.
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/channel.h>
#include <grpcpp/support/channel_arguments.h>

#include "absl/status/statusor.h"

namespace hipforge {

struct ChannelSecurity {
  std::string token;            // API token or worker credential; empty: none sent
  bool tls = false;             // also implied by any tls_* file below
  std::string tls_ca_file;      // PEM bundle the server certificate must chain to; empty: system roots
  std::string tls_server_name;  // name the certificate must carry; empty: the host of the target
  std::string tls_cert_file;    // client certificate (mTLS) and its key
  std::string tls_key_file;

  bool UsesTls() const { return tls || !tls_ca_file.empty() || !tls_cert_file.empty(); }
};

// The addresses of a server list: "a:50051,b:50051" (a repeated --server is joined with commas), blanks dropped.
std::vector<std::string> SplitServerList(const std::string& servers);

// The gRPC target for a server list. One address is returned unchanged (gRPC's dns resolver already tries every
// record of a name). Several HOST:PORT addresses are resolved now into one ipv4: (or ipv6:) target: gRPC's
// pick_first then uses the first address that accepts a connection and, once that server dies, reconnects
// through the next one on the following call. InvalidArgument for a malformed entry, NotFound when a host does
// not resolve.
absl::StatusOr<std::string> ChannelTarget(const std::string& servers);

// `target` may be a server list (ChannelTarget). With several servers and TLS, every server must present a
// certificate for one name: security.tls_server_name, else the first address's host.
// InvalidArgument/NotFound naming the file when a certificate or key cannot be read.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const std::string& target, const ChannelSecurity& security,
                                                           grpc::ChannelArguments arguments = {});

}  // namespace hipforge
