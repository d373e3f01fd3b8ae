#pragma once
// migrate-server's HTTP listener (Boost.Beast): parses requests, hands them to an HttpHandler as plain
// structs, writes the responses. A response may stream (Server-Sent Events) until the client leaves or
// the server stops. One thread per connection (bounded), so a long-lived event stream never stalls
// other requests.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace hipforge::server::http {

struct HttpRequest {
  std::string method;                             // "GET", ...
  std::string path;                               // percent-decoded, without the query
  std::string target;                             // as sent (path and query)
  std::multimap<std::string, std::string> query;  // percent-decoded parameters
  std::map<std::string, std::string> headers;     // lower-case names
  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

// Where a streamed response writes. Send returns false once the client is gone.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual bool Send(absl::string_view bytes) = 0;
  // True when the client closed its side or the server is stopping.
  virtual bool Done() = 0;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // When set, the headers go out without a length and this writes the body until it returns; the
  // connection then closes (Server-Sent Events).
  std::function<void(EventSink&)> stream;
  // Streams are capped per key (the caller's team) as well as in all: one team cannot hold them all.
  std::string stream_key;
};

class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  virtual HttpResponse Handle(const HttpRequest& request) = 0;
};

// Budgets and deadlines (docs/operations.md, "HTTP connections"). A connection that is not inside a
// handler or a stream (waiting for a request, or reading one) can be closed to make room, oldest
// first, so idle and slow peers never keep anyone out; handlers and streams have budgets of their
// own below the connection cap, so health checks always find a connection.
struct HttpServerOptions {
  int max_connections = 512;     // open at once; at the cap the oldest idle or reading one is closed
  int max_api_requests = 128;    // non-health requests inside a handler at once; beyond: 503
  int max_streams = 256;         // event streams at once; beyond: 503
  int max_streams_per_key = 32;  // ... per HttpResponse::stream_key (team); beyond: 429
  std::vector<std::string> health_paths = {"/healthz", "/readyz"};  // outside max_api_requests
  int idle_timeout_seconds = 30;     // keep-alive: no next request for this long closes the connection
  int request_timeout_seconds = 10;  // a request's headers and body, from its first byte (or the accept)
  int write_timeout_seconds = 30;    // each response, and each event of a stream, must be taken this fast
  size_t max_request_bytes = 64 << 10;
};

class HttpServer {
 public:
  // `listen` is HOST:PORT (port 0 picks a free port). Unavailable when it cannot bind.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(const std::string& listen, HttpHandler& handler,
                                                           HttpServerOptions options = {});
  ~HttpServer();
  int port() const;
  // Stops accepting, ends streams and open connections, joins their threads. Idempotent.
  void Shutdown();

  struct Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A request target ("/path?k=v&...") as HttpRequest's target, path and query (percent-decoded; method
// and headers left empty). nullopt for a malformed escape.
std::optional<HttpRequest> ParseTarget(absl::string_view target);

// "a%20b+c" -> "a b c" (query strings: '+' is a space). nullopt for a malformed escape.
std::optional<std::string> PercentDecode(absl::string_view text, bool plus_is_space);

}  // namespace hipforge::server::http
