#include "tests/server/http/http_test_client.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace hipforge::server::testing {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;

HttpResult HttpGet(int port, const std::string& target, const std::map<std::string, std::string>& headers,
                   const std::string& method) {
  boost::asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
  bhttp::request<bhttp::empty_body> request{bhttp::string_to_verb(method), target, 11};
  request.set(bhttp::field::host,
              "127.0.0.1:" + std::to_string(port));  // as browsers send it (RFC 9110: with the port)
  for (const auto& [name, value] : headers) request.set(name, value);
  bhttp::write(socket, request);
  beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 << 20);
  if (method == "HEAD") parser.skip(true);
  beast::error_code ec;
  bhttp::read(socket, buffer, parser, ec);
  HttpResult result;
  const auto& response = parser.get();
  result.status = response.result_int();
  for (const auto& field : response) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    result.headers[name] = std::string(field.value());
  }
  result.body = response.body();
  socket.shutdown(tcp::socket::shutdown_both, ec);
  return result;
}

std::string UrlEncode(const std::string& text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace hipforge::server::testing
