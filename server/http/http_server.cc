#include "server/http/http_server.h"

#include <sys/socket.h>

#include <atomic>
#include <list>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <spdlog/spdlog.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hipforge::server::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

std::optional<std::string> PercentDecode(absl::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      int value = 0;
      if (i + 2 >= text.size()) return std::nullopt;
      for (int k = 1; k <= 2; ++k) {
        const char h = text[i + k];
        value <<= 4;
        if (h >= '0' && h <= '9') value |= h - '0';
        else if (h >= 'a' && h <= 'f') value |= h - 'a' + 10;
        else if (h >= 'A' && h <= 'F') value |= h - 'A' + 10;
        else return std::nullopt;
      }
      out += static_cast<char>(value);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

namespace {

struct Connection {
  tcp::socket socket;
  std::jthread thread;
  std::atomic<bool> finished{false};
  explicit Connection(tcp::socket s) : socket(std::move(s)) {}
};

// Beast request -> HttpRequest; nullopt for a target that does not decode.
std::optional<HttpRequest> ToRequest(const bhttp::request<bhttp::string_body>& in) {
  HttpRequest request;
  request.method = std::string(in.method_string().data(), in.method_string().size());
  request.target = std::string(in.target().data(), in.target().size());
  const absl::string_view target(in.target().data(), in.target().size());
  const size_t question = target.find('?');
  auto path = PercentDecode(target.substr(0, question), false);
  if (!path) return std::nullopt;
  request.path = *path;
  if (question != absl::string_view::npos) {
    for (absl::string_view pair : absl::StrSplit(target.substr(question + 1), '&', absl::SkipEmpty())) {
      const size_t eq = pair.find('=');
      auto key = PercentDecode(pair.substr(0, eq), true);
      auto value = PercentDecode(eq == absl::string_view::npos ? absl::string_view() : pair.substr(eq + 1), true);
      if (!key || !value) return std::nullopt;
      request.query.emplace(*key, *value);
    }
  }
  for (const auto& field : in) {
    std::string name(field.name_string().data(), field.name_string().size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    request.headers[name] = std::string(field.value().data(), field.value().size());
  }
  return request;
}

class SocketSink final : public EventSink {
 public:
  SocketSink(tcp::socket& socket, const std::atomic<bool>& stopping) : socket_(socket), stopping_(stopping) {}
  bool Send(absl::string_view bytes) override {
    if (broken_) return false;
    beast::error_code ec;
    asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), ec);
    if (ec) broken_ = true;
    return !broken_;
  }
  bool Done() override {
    if (broken_ || stopping_.load()) return true;
    char byte;
    const ssize_t n = ::recv(socket_.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) broken_ = true;  // orderly close by the client
    return broken_;
  }

 private:
  tcp::socket& socket_;
  const std::atomic<bool>& stopping_;
  bool broken_ = false;
};

}  // namespace

struct HttpServer::Impl {
  HttpHandler& handler;
  HttpServerOptions options;
  asio::io_context io;
  tcp::acceptor acceptor{io};
  std::jthread accept_thread;
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::list<std::unique_ptr<Connection>> connections;
  int port = 0;

  Impl(HttpHandler& h, HttpServerOptions o) : handler(h), options(o) {}

  void AcceptLoop() {
    while (!stopping.load()) {
      beast::error_code ec;
      tcp::socket socket(io);
      acceptor.accept(socket, ec);
      if (stopping.load()) break;
      if (ec) {
        if (ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor) break;
        spdlog::warn("[job=-] http accept: {}", ec.message());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      Adopt(std::move(socket));
    }
  }

  void Adopt(tcp::socket socket) {
    std::lock_guard lock(mutex);
    connections.remove_if([](const std::unique_ptr<Connection>& c) { return c->finished.load(); });  // joins
    if (static_cast<int>(connections.size()) >= options.max_connections) {
      bhttp::response<bhttp::string_body> busy{bhttp::status::service_unavailable, 11};
      busy.set(bhttp::field::content_type, "application/json");
      busy.set(bhttp::field::retry_after, "1");
      busy.body() = R"({"error":{"code":503,"status":"UNAVAILABLE","message":"too many connections"}})";
      busy.keep_alive(false);
      busy.prepare_payload();
      beast::error_code ec;
      bhttp::write(socket, busy, ec);
      return;
    }
    timeval timeout{options.idle_timeout_seconds, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    auto connection = std::make_unique<Connection>(std::move(socket));
    Connection* raw = connection.get();
    connection->thread = std::jthread([this, raw] {
      Serve(raw->socket);
      beast::error_code ec;
      raw->socket.shutdown(tcp::socket::shutdown_both, ec);
      raw->socket.close(ec);
      raw->finished = true;
    });
    connections.push_back(std::move(connection));
  }

  void Serve(tcp::socket& socket) {
    beast::flat_buffer buffer;
    while (!stopping.load()) {
      bhttp::request_parser<bhttp::string_body> parser;
      parser.body_limit(options.max_request_bytes);
      parser.header_limit(static_cast<std::uint32_t>(options.max_request_bytes));
      beast::error_code ec;
      bhttp::read(socket, buffer, parser, ec);
      if (ec == bhttp::error::end_of_stream || ec) {
        if (ec && ec != bhttp::error::end_of_stream && ec != asio::error::eof &&
            ec != asio::error::would_block && ec != asio::error::connection_reset && !stopping.load()) {
          WriteError(socket, 400, "bad HTTP request: " + ec.message());
        }
        return;
      }
      const auto& in = parser.get();
      std::optional<HttpRequest> request = ToRequest(in);
      if (!request) {
        WriteError(socket, 400, "malformed percent-encoding in the request target");
        return;
      }
      HttpResponse response;
      try {
        response = handler.Handle(*request);
      } catch (const std::exception& e) {
        spdlog::error("[job=-] http {} {}: {}", request->method, request->target, e.what());
        response = HttpResponse{};
        response.status = 500;
        response.body = R"({"error":{"code":500,"status":"INTERNAL","message":"internal error"}})";
      }
      if (response.stream) {
        Stream(socket, in, response);
        return;
      }
      bhttp::response<bhttp::string_body> out{static_cast<bhttp::status>(response.status), in.version()};
      out.set(bhttp::field::server, "migrate-server");
      if (!response.content_type.empty() && response.status != 304) {
        out.set(bhttp::field::content_type, response.content_type);
      }
      for (const auto& [name, value] : response.headers) out.set(name, value);
      out.keep_alive(in.keep_alive());
      if (in.method() != bhttp::verb::head && response.status != 304) out.body() = std::move(response.body);
      out.prepare_payload();
      bhttp::write(socket, out, ec);
      if (ec || !out.keep_alive()) return;
    }
  }

  void Stream(tcp::socket& socket, const bhttp::request<bhttp::string_body>& in, HttpResponse& response) {
    bhttp::response<bhttp::empty_body> head{static_cast<bhttp::status>(response.status), in.version()};
    head.set(bhttp::field::server, "migrate-server");
    head.set(bhttp::field::content_type, response.content_type);
    for (const auto& [name, value] : response.headers) head.set(name, value);
    head.keep_alive(false);
    bhttp::response_serializer<bhttp::empty_body> serializer{head};
    beast::error_code ec;
    bhttp::write_header(socket, serializer, ec);
    if (ec) return;
    SocketSink sink(socket, stopping);
    response.stream(sink);
  }

  static void WriteError(tcp::socket& socket, int status, const std::string& message) {
    bhttp::response<bhttp::string_body> out{static_cast<bhttp::status>(status), 11};
    out.set(bhttp::field::content_type, "application/json");
    std::string escaped;
    for (char c : message) {
      if (c == '"' || c == '\\') escaped += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) escaped += c;
    }
    out.body() = absl::StrCat(R"({"error":{"code":)", status, R"(,"status":"INVALID_ARGUMENT","message":")", escaped,
                              "\"}}");
    out.keep_alive(false);
    out.prepare_payload();
    beast::error_code ec;
    bhttp::write(socket, out, ec);
  }
};

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServer::~HttpServer() { Shutdown(); }
int HttpServer::port() const { return impl_->port; }

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(const std::string& listen, HttpHandler& handler,
                                                              HttpServerOptions options) {
  const size_t colon = listen.rfind(':');
  int port = 0;
  if (colon == std::string::npos || !absl::SimpleAtoi(listen.substr(colon + 1), &port) || port < 0 || port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat("HTTP listen address '", listen, "' is not HOST:PORT"));
  }
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "0.0.0.0";
  auto impl = std::make_unique<Impl>(handler, options);
  beast::error_code ec;
  const asio::ip::address address = asio::ip::make_address(host == "localhost" ? "127.0.0.1" : host, ec);
  if (ec) return absl::InvalidArgumentError(absl::StrCat("HTTP listen host '", host, "': ", ec.message()));
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot listen for HTTP on ", listen, ": ", ec.message()));
  impl->port = impl->acceptor.local_endpoint().port();
  Impl* raw = impl.get();
  impl->accept_thread = std::jthread([raw] { raw->AcceptLoop(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

void HttpServer::Shutdown() {
  if (!impl_ || impl_->stopping.exchange(true)) return;
  // shutdown(2) wakes the blocking accept and reads; the threads then see `stopping`.
  ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
  impl_->accept_thread = {};
  beast::error_code ec;
  impl_->acceptor.close(ec);
  std::list<std::unique_ptr<Connection>> connections;
  {
    std::lock_guard lock(impl_->mutex);
    for (auto& connection : impl_->connections) ::shutdown(connection->socket.native_handle(), SHUT_RDWR);
    connections.swap(impl_->connections);
  }
  connections.clear();  // joins
}

}  // namespace hipforge::server::http
