#pragma once
// A small HTTP/1.1 client over Boost.Beast for the dashboard tests (real sockets to the real server).
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace hipforge::server::testing {

struct HttpResult {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
  nlohmann::json Json() const { return nlohmann::json::parse(body, nullptr, false); }
};

// GET (or `method`) http://127.0.0.1:port/target with the given headers; the whole body (an event
// stream is read until the server closes it).
HttpResult HttpGet(int port, const std::string& target, const std::map<std::string, std::string>& headers = {},
                   const std::string& method = "GET");

// "a b/c" -> "a%20b%2Fc"
std::string UrlEncode(const std::string& text);

}  // namespace hipforge::server::testing
