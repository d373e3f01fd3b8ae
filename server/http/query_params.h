#pragma once
// The dashboard API's query parameters and page tokens: what arrives from the client, checked before
// any of it reaches a filter, a message or JSON (every failure is a 400 with a message, never an
// exception). Fuzzed by fuzz/http_query_fuzzer.cc.
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "server/http/http_server.h"
#include "server/store/dashboard_reader.h"

namespace hipforge::server::http {

// Query parameters of one endpoint: unknown names, repeated names and text that is not UTF-8 are
// refused (a typo must not silently widen a filter).
class Params {
 public:
  Params(const HttpRequest& request, std::set<std::string> allowed);
  const std::optional<std::string>& problem() const { return problem_; }
  std::optional<std::string> Text(const std::string& name) const;  // nullopt when absent or empty
  absl::StatusOr<int> Int(const std::string& name, int fallback, int min, int max) const;
  absl::StatusOr<std::optional<std::string>> OneOf(const std::string& name, std::set<std::string> values) const;
  // RFC 3339 time -> microseconds since the epoch.
  absl::StatusOr<std::optional<int64_t>> Time(const std::string& name) const;

 private:
  const HttpRequest& request_;
  std::optional<std::string> problem_;
};

// Page tokens: base64url JSON {"k": kind, ...}, opaque to clients, each field checked by type on the
// way back in. nullopt when the request has no page_token; InvalidArgument for any other token.
std::string EncodeRepositoriesCursor(const std::string& after);
absl::StatusOr<std::optional<std::string>> DecodeRepositoriesCursor(const Params& params);
std::string EncodeJobsCursor(int64_t before_seq);
absl::StatusOr<std::optional<int64_t>> DecodeJobsCursor(const Params& params);
std::string EncodeFindingsCursor(const FindingCursor& cursor);
absl::StatusOr<std::optional<FindingCursor>> DecodeFindingsCursor(const Params& params);

}  // namespace hipforge::server::http
