#include "server/http/http_server.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <functional>
#include <map>
#include <variant>

#include <atomic>
#include <list>
#include <mutex>
#include <optional>
#include <thread>

#include <spdlog/spdlog.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

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
        if (h >= '0' && h <= '9')
          value |= h - '0';
        else if (h >= 'a' && h <= 'f')
          value |= h - 'a' + 10;
        else if (h >= 'A' && h <= 'F')
          value |= h - 'A' + 10;
        else
          return std::nullopt;
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

std::optional<HttpRequest> ParseTarget(absl::string_view target) {
  HttpRequest request;
  request.target = std::string(target);
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
  return request;
}

namespace {

using Steady = std::chrono::steady_clock;

// What a connection is doing: only kIdle and kReading ones may be closed to make room.
enum class Phase { kIdle, kReading, kHandling, kStreaming };

// The socket as Beast's SyncReadStream/SyncWriteStream, with deadlines. asio's blocking reads ignore
// SO_RCVTIMEO (they poll again on EAGAIN), so an idle or one-byte-per-10-s peer held its thread for
// ever; here the socket is non-blocking and every wait is a poll() bounded by the current deadline.
class DeadlineSocket {
 public:
  explicit DeadlineSocket(tcp::socket& socket) : socket_(socket) {
    beast::error_code ec;
    socket_.non_blocking(true, ec);
  }
  void set_read_deadline(Steady::time_point deadline) { read_deadline_ = deadline; }
  void set_write_deadline(Steady::time_point deadline) { write_deadline_ = deadline; }
  // Called when a read gets the first bytes after set_read_deadline (a request has begun).
  void on_first_bytes(std::function<void()> callback) { first_bytes_ = std::move(callback); }

  template <class Buffers>
  size_t read_some(const Buffers& buffers, beast::error_code& ec) {
    for (;;) {
      const size_t n = socket_.read_some(buffers, ec);
      if (ec != asio::error::would_block && ec != asio::error::try_again) {
        if (n > 0 && first_bytes_) std::exchange(first_bytes_, nullptr)();
        return n;
      }
      if (!Wait(POLLIN, read_deadline_, ec)) return 0;
    }
  }
  // The throwing forms the stream concepts require.
  template <class Buffers>
  size_t read_some(const Buffers& buffers) {
    beast::error_code ec;
    return OrThrow(read_some(buffers, ec), ec);
  }
  template <class Buffers>
  size_t write_some(const Buffers& buffers, beast::error_code& ec) {
    for (;;) {
      const size_t n = socket_.write_some(buffers, ec);
      if (ec != asio::error::would_block && ec != asio::error::try_again) return n;
      if (!Wait(POLLOUT, write_deadline_, ec)) return 0;
    }
  }
  template <class Buffers>
  size_t write_some(const Buffers& buffers) {
    beast::error_code ec;
    return OrThrow(write_some(buffers, ec), ec);
  }

 private:
  static size_t OrThrow(size_t n, const beast::error_code& ec) {
    if (ec) throw beast::system_error(ec);
    return n;
  }

  bool Wait(short events, Steady::time_point deadline, beast::error_code& ec) {
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Steady::now()).count();
      if (left <= 0) {
        ec = asio::error::timed_out;
        return false;
      }
      pollfd fd{socket_.native_handle(), events, 0};
      const int ready = ::poll(&fd, 1, static_cast<int>(std::min<int64_t>(left, 1000)));
      if (ready > 0) {
        ec = {};
        return true;  // readable, writable, or closed: the next read/write says which
      }
      if (ready < 0 && errno != EINTR) {
        ec = beast::error_code(errno, beast::system_category());
        return false;
      }
    }
  }

  tcp::socket& socket_;
  Steady::time_point read_deadline_ = Steady::time_point::max();
  Steady::time_point write_deadline_ = Steady::time_point::max();
  std::function<void()> first_bytes_;
};

struct Connection {
  tcp::socket socket;
  std::jthread thread;
  std::atomic<bool> finished{false};
  std::atomic<Phase> phase{Phase::kIdle};
  std::atomic<int64_t> phase_since{0};  // steady-clock ticks: the oldest idle connection goes first
  explicit Connection(tcp::socket s) : socket(std::move(s)) {}
  void Enter(Phase next) {
    phase_since = Steady::now().time_since_epoch().count();
    phase = next;
  }
};

// Beast request -> HttpRequest; nullopt for a target that does not decode.
std::optional<HttpRequest> ToRequest(const bhttp::request<bhttp::string_body>& in) {
  std::optional<HttpRequest> request = ParseTarget(absl::string_view(in.target().data(), in.target().size()));
  if (!request) return std::nullopt;
  request->method = std::string(in.method_string().data(), in.method_string().size());
  for (const auto& field : in) {
    std::string name(field.name_string().data(), field.name_string().size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    request->headers[name] = std::string(field.value().data(), field.value().size());
  }
  return request;
}

class SocketSink final : public EventSink {
 public:
  SocketSink(DeadlineSocket& socket, int fd, const std::atomic<bool>& stopping, std::chrono::seconds write_timeout)
      : socket_(socket), fd_(fd), stopping_(stopping), write_timeout_(write_timeout) {}
  bool Send(absl::string_view bytes) override {
    if (broken_) return false;
    beast::error_code ec;
    // A reader that stops reading holds no thread for longer than this per event.
    socket_.set_write_deadline(Steady::now() + write_timeout_);
    asio::write(socket_, asio::buffer(bytes.data(), bytes.size()), ec);
    if (ec) broken_ = true;
    return !broken_;
  }
  bool Done() override {
    if (broken_ || stopping_.load()) return true;
    char byte;
    const ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) broken_ = true;  // orderly close by the client
    return broken_;
  }

 private:
  DeadlineSocket& socket_;
  int fd_;
  const std::atomic<bool>& stopping_;
  std::chrono::seconds write_timeout_;
  bool broken_ = false;
};

// Holds one unit of a budget for a scope; empty when the budget was spent.
class BudgetSlot {
 public:
  BudgetSlot() = default;
  explicit BudgetSlot(std::function<void()> release) : release_(std::move(release)) {}
  BudgetSlot(BudgetSlot&& other) noexcept : release_(std::exchange(other.release_, nullptr)) {}
  BudgetSlot& operator=(BudgetSlot&& other) noexcept {
    if (this != &other) {
      Release();
      release_ = std::exchange(other.release_, nullptr);
    }
    return *this;
  }
  ~BudgetSlot() { Release(); }
  void Release() {
    if (release_) std::exchange(release_, nullptr)();
  }

 private:
  std::function<void()> release_;
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
  int api_requests = 0;                       // under `mutex`
  int streams = 0;                            // under `mutex`
  std::map<std::string, int> streams_by_key;  // under `mutex`
  int port = 0;

  Impl(HttpHandler& h, HttpServerOptions o) : handler(h), options(std::move(o)) {}

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

  // At the cap, the connection that has waited longest without being inside a handler or stream
  // makes room (closed: its thread sees end of file). Under `mutex`.
  bool EvictOne() {
    Connection* victim = nullptr;
    for (Phase wanted : {Phase::kIdle, Phase::kReading}) {
      for (const auto& connection : connections) {
        if (connection->finished.load() || connection->phase.load() != wanted) continue;
        if (victim == nullptr || connection->phase_since.load() < victim->phase_since.load()) victim = connection.get();
      }
      if (victim != nullptr) break;
    }
    if (victim == nullptr) return false;
    victim->phase = Phase::kHandling;  // not chosen twice
    ::shutdown(victim->socket.native_handle(), SHUT_RDWR);
    return true;
  }

  void Adopt(tcp::socket socket) {
    std::lock_guard lock(mutex);
    connections.remove_if([](const std::unique_ptr<Connection>& c) { return c->finished.load(); });  // joins
    if (static_cast<int>(connections.size()) >= options.max_connections && !EvictOne()) {
      bhttp::response<bhttp::string_body> busy{bhttp::status::service_unavailable, 11};
      busy.set(bhttp::field::content_type, "application/json");
      busy.set(bhttp::field::retry_after, "1");
      busy.body() = R"({"error":{"code":503,"status":"UNAVAILABLE","message":"too many connections"}})";
      busy.keep_alive(false);
      busy.prepare_payload();
      DeadlineSocket stream(socket);
      stream.set_write_deadline(Steady::now() + std::chrono::seconds(1));
      beast::error_code ec;
      bhttp::write(stream, busy, ec);
      return;
    }
    auto connection = std::make_unique<Connection>(std::move(socket));
    connection->Enter(Phase::kIdle);
    Connection* raw = connection.get();
    connection->thread = std::jthread([this, raw] {
      Serve(*raw);
      beast::error_code ec;
      raw->socket.shutdown(tcp::socket::shutdown_both, ec);
      raw->socket.close(ec);
      raw->finished = true;
    });
    connections.push_back(std::move(connection));
  }

  bool IsHealthCheck(const HttpRequest& request) const {
    return std::find(options.health_paths.begin(), options.health_paths.end(), request.path) !=
           options.health_paths.end();
  }

  // A slot of the API budget (health checks take none); empty when it is spent.
  std::optional<BudgetSlot> TakeApiSlot(const HttpRequest& request) {
    if (IsHealthCheck(request)) return BudgetSlot();
    std::lock_guard lock(mutex);
    if (api_requests >= options.max_api_requests) return std::nullopt;
    ++api_requests;
    return BudgetSlot([this] {
      std::lock_guard released(mutex);
      --api_requests;
    });
  }

  // A slot of the stream budgets, or the status that refuses it (503 all streams, 429 this key's).
  std::variant<BudgetSlot, int> TakeStreamSlot(const std::string& key) {
    std::lock_guard lock(mutex);
    if (streams >= options.max_streams) return 503;
    if (streams_by_key[key] >= options.max_streams_per_key) return 429;
    ++streams;
    ++streams_by_key[key];
    return BudgetSlot([this, key] {
      std::lock_guard released(mutex);
      --streams;
      if (--streams_by_key[key] == 0) streams_by_key.erase(key);
    });
  }

  void Serve(Connection& connection) {
    DeadlineSocket stream(connection.socket);
    beast::flat_buffer buffer;
    // A new connection gets the request timeout for its first request; later ones the idle timeout
    // to begin, then the request timeout to finish.
    auto wait_for_request = Steady::now() + std::chrono::seconds(options.request_timeout_seconds);
    while (!stopping.load()) {
      connection.Enter(Phase::kIdle);
      stream.set_read_deadline(wait_for_request);
      stream.on_first_bytes([&] {
        connection.Enter(Phase::kReading);
        stream.set_read_deadline(Steady::now() + std::chrono::seconds(options.request_timeout_seconds));
      });
      bhttp::request_parser<bhttp::string_body> parser;
      parser.body_limit(options.max_request_bytes);
      parser.header_limit(static_cast<std::uint32_t>(options.max_request_bytes));
      beast::error_code ec;
      bhttp::read(stream, buffer, parser, ec);
      stream.on_first_bytes(nullptr);
      if (ec) {
        if (ec == asio::error::timed_out && connection.phase.load() == Phase::kReading && !stopping.load()) {
          WriteError(stream, 408, "REQUEST_TIMEOUT", "the request did not arrive in time");
        } else if (ec != bhttp::error::end_of_stream && ec != asio::error::eof && ec != asio::error::timed_out &&
                   ec != asio::error::connection_reset && ec != asio::error::not_connected &&
                   ec != asio::error::broken_pipe && !stopping.load() && connection.phase.load() == Phase::kReading) {
          WriteError(stream, 400, "INVALID_ARGUMENT", "bad HTTP request: " + ec.message());
        }
        return;
      }
      connection.Enter(Phase::kHandling);
      const auto& in = parser.get();
      std::optional<HttpRequest> request = ToRequest(in);
      if (!request) {
        WriteError(stream, 400, "INVALID_ARGUMENT", "malformed percent-encoding in the request target");
        return;
      }
      HttpResponse response = Handle(*request);
      if (response.stream) {
        std::variant<BudgetSlot, int> slot = TakeStreamSlot(response.stream_key);
        if (const int* refused = std::get_if<int>(&slot)) {
          WriteError(stream, *refused, *refused == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE",
                     *refused == 429 ? "too many event streams for this team" : "too many event streams");
          return;
        }
        connection.Enter(Phase::kStreaming);
        Stream(stream, connection.socket.native_handle(), in, response);
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
      stream.set_write_deadline(Steady::now() + std::chrono::seconds(options.write_timeout_seconds));
      bhttp::write(stream, out, ec);
      if (ec || !out.keep_alive()) return;
      wait_for_request = Steady::now() + std::chrono::seconds(options.idle_timeout_seconds);
    }
  }

  HttpResponse Handle(const HttpRequest& request) {
    std::optional<BudgetSlot> slot = TakeApiSlot(request);
    HttpResponse response;
    if (!slot) {
      response.status = 503;
      response.headers = {{"Retry-After", "1"}};
      response.body = R"({"error":{"code":503,"status":"UNAVAILABLE","message":"too many requests in progress"}})";
      return response;
    }
    try {
      response = handler.Handle(request);
    } catch (const std::exception& e) {
      spdlog::error("[job=-] http {} {}: {}", request.method, request.target, e.what());
      response = HttpResponse{};
      response.status = 500;
      response.body = R"({"error":{"code":500,"status":"INTERNAL","message":"internal error"}})";
    }
    return response;
  }

  void Stream(DeadlineSocket& stream, int fd, const bhttp::request<bhttp::string_body>& in, HttpResponse& response) {
    bhttp::response<bhttp::empty_body> head{static_cast<bhttp::status>(response.status), in.version()};
    head.set(bhttp::field::server, "migrate-server");
    head.set(bhttp::field::content_type, response.content_type);
    for (const auto& [name, value] : response.headers) head.set(name, value);
    head.keep_alive(false);
    bhttp::response_serializer<bhttp::empty_body> serializer{head};
    beast::error_code ec;
    stream.set_write_deadline(Steady::now() + std::chrono::seconds(options.write_timeout_seconds));
    bhttp::write_header(stream, serializer, ec);
    if (ec) return;
    SocketSink sink(stream, fd, stopping, std::chrono::seconds(options.write_timeout_seconds));
    response.stream(sink);
  }

  void WriteError(DeadlineSocket& stream, int status, const char* status_name, const std::string& message) {
    bhttp::response<bhttp::string_body> out{static_cast<bhttp::status>(status), 11};
    out.set(bhttp::field::content_type, "application/json");
    if (status == 503) out.set(bhttp::field::retry_after, "1");
    std::string escaped;
    for (char c : message) {
      if (c == '"' || c == '\\') escaped += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) escaped += c;
    }
    out.body() = absl::StrCat(R"({"error":{"code":)", status, R"(,"status":")", status_name, R"(","message":")",
                              escaped, "\"}}");
    out.keep_alive(false);
    out.prepare_payload();
    stream.set_write_deadline(Steady::now() + std::chrono::seconds(1));
    beast::error_code ec;
    bhttp::write(stream, out, ec);
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
