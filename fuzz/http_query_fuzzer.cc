// The dashboard API's request target as the listener and the endpoints read it: ParseTarget, then the
// query parameters (Params) and every page token kind, the way each endpoint asks for them. Anything
// thrown (a nlohmann type_error answered 500 before, issue 24) or any text that is not UTF-8 reaching a
// filter is a crash. Input: the request target, bytes as they are.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "common/utf8.h"
#include "server/http/http_server.h"
#include "server/http/query_params.h"

using namespace hipforge::server::http;

namespace {

void MustBeUtf8(const std::optional<std::string>& text) {
  if (text && !hipforge::IsValidUtf8(*text)) std::abort();
}

void Exercise(const HttpRequest& request, const std::set<std::string>& allowed) {
  Params params(request, allowed);
  if (params.problem()) {
    // The message goes out as JSON.
    (void)nlohmann::json(*params.problem()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  for (const std::string& name : allowed) MustBeUtf8(params.Text(name));
  (void)params.Int("page_size", 50, 1, 500);
  (void)params.Time("created_after");
  (void)params.OneOf("severity", {"error", "warning", "note"});
  if (auto after = DecodeRepositoriesCursor(params); after.ok() && *after) {
    MustBeUtf8(*after);
    if (DecodeRepositoriesCursor(params)->value() != **after) std::abort();
  }
  (void)DecodeJobsCursor(params);
  if (auto cursor = DecodeFindingsCursor(params); cursor.ok() && *cursor) {
    MustBeUtf8((*cursor)->rule_id);
    MustBeUtf8((*cursor)->path);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string target(reinterpret_cast<const char*>(data), size);
  std::optional<HttpRequest> request = ParseTarget(target);
  if (!request) return 0;
  Exercise(*request, {"page_size", "page_token", "repository"});
  Exercise(*request,
           {"repository", "branch", "state", "label", "created_after", "created_before", "page_size", "page_token"});
  Exercise(*request, {"rule", "path", "severity", "auto_fixed", "since", "page_size", "page_token"});
  // Round trip: what the server encodes, it decodes to the same cursor.
  hipforge::server::FindingCursor cursor{"HB101", request->path, 3, 7};
  if (hipforge::IsValidUtf8(request->path)) {
    HttpRequest echo;
    echo.query.emplace("page_token", EncodeFindingsCursor(cursor));
    Params params(echo, {"page_token"});
    auto decoded = DecodeFindingsCursor(params);
    if (!decoded.ok() || !*decoded || (*decoded)->path != cursor.path || (*decoded)->ordinal != 7) std::abort();
  }
  return 0;
}
