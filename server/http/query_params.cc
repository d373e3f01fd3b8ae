#include "server/http/query_params.h"

#include <limits>

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "common/utf8.h"

namespace hipforge::server::http {
namespace {

using nlohmann::json;

absl::Status InvalidToken() {
  return absl::InvalidArgumentError("invalid page token (use next_page_token from the previous page)");
}

std::string Encode(const json& token) { return absl::WebSafeBase64Escape(token.dump()); }

// The token's object when it is of `kind`; nullopt without a token.
absl::StatusOr<std::optional<json>> Decode(const Params& params, const std::string& kind) {
  auto text = params.Text("page_token");
  if (!text) return std::optional<json>();
  std::string raw;
  json token;
  if (absl::WebSafeBase64Unescape(*text, &raw)) token = json::parse(raw, nullptr, false);
  // Fields are checked by type before use: value() and get() throw on a number where a string belongs.
  if (!token.is_object() || !token.contains("k") || !token["k"].is_string() || token["k"].get<std::string>() != kind) {
    return InvalidToken();
  }
  return std::optional<json>(std::move(token));
}

bool IsInt(const json& token, const char* key) {
  return token.contains(key) && token[key].is_number_integer() && token[key].get<int64_t>() >= 0 &&
         token[key].get<int64_t>() <= std::numeric_limits<int>::max();
}

}  // namespace

Params::Params(const HttpRequest& request, std::set<std::string> allowed) : request_(request) {
  for (const auto& [name, value] : request.query) {
    if (!IsValidUtf8(name) || !IsValidUtf8(value)) {
      // Names and values reach JSON (filters, messages), which holds only UTF-8.
      problem_ = absl::StrCat("query parameter '", EscapeForMessage(name), "' is not valid UTF-8");
      break;
    }
    if (allowed.count(name) == 0) {
      problem_ = absl::StrCat("unknown query parameter '", name, "'");
    } else if (request.query.count(name) > 1) {
      problem_ = absl::StrCat("query parameter '", name, "' given more than once");
    }
  }
}

std::optional<std::string> Params::Text(const std::string& name) const {
  auto it = request_.query.find(name);
  if (it == request_.query.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

absl::StatusOr<int> Params::Int(const std::string& name, int fallback, int min, int max) const {
  auto text = Text(name);
  if (!text) return fallback;
  int value = 0;
  if (!absl::SimpleAtoi(*text, &value) || value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be an integer in [", min, ", ", max, "], got '", *text, "'"));
  }
  return value;
}

absl::StatusOr<std::optional<std::string>> Params::OneOf(const std::string& name, std::set<std::string> values) const {
  auto text = Text(name);
  if (text && values.count(*text) == 0) {
    std::string allowed;
    for (const auto& v : values) absl::StrAppend(&allowed, allowed.empty() ? "" : ", ", v);
    return absl::InvalidArgumentError(absl::StrCat(name, " must be one of ", allowed, ", got '", *text, "'"));
  }
  return text;
}

absl::StatusOr<std::optional<int64_t>> Params::Time(const std::string& name) const {
  auto text = Text(name);
  if (!text) return std::optional<int64_t>();
  absl::Time time;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, *text, &time, &error)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be an RFC 3339 time like 2026-01-31T12:00:00Z, got '", *text, "'"));
  }
  return std::optional<int64_t>(absl::ToUnixMicros(time));
}

std::string EncodeRepositoriesCursor(const std::string& after) {
  return Encode({{"k", "repositories"}, {"after", after}});
}

absl::StatusOr<std::optional<std::string>> DecodeRepositoriesCursor(const Params& params) {
  absl::StatusOr<std::optional<json>> token = Decode(params, "repositories");
  if (!token.ok()) return token.status();
  if (!*token) return std::optional<std::string>();
  const json& t = **token;
  if (!t.contains("after") || !t["after"].is_string() || !IsValidUtf8(t["after"].get<std::string>())) {
    return InvalidToken();
  }
  return std::optional<std::string>(t["after"].get<std::string>());
}

std::string EncodeJobsCursor(int64_t before_seq) { return Encode({{"k", "jobs"}, {"before", before_seq}}); }

absl::StatusOr<std::optional<int64_t>> DecodeJobsCursor(const Params& params) {
  absl::StatusOr<std::optional<json>> token = Decode(params, "jobs");
  if (!token.ok()) return token.status();
  if (!*token) return std::optional<int64_t>();
  const json& t = **token;
  if (!t.contains("before") || !t["before"].is_number_integer()) return InvalidToken();
  return std::optional<int64_t>(t["before"].get<int64_t>());
}

std::string EncodeFindingsCursor(const FindingCursor& cursor) {
  return Encode(
      {{"k", "findings"}, {"r", cursor.rule_id}, {"p", cursor.path}, {"l", cursor.line}, {"o", cursor.ordinal}});
}

absl::StatusOr<std::optional<FindingCursor>> DecodeFindingsCursor(const Params& params) {
  absl::StatusOr<std::optional<json>> token = Decode(params, "findings");
  if (!token.ok()) return token.status();
  if (!*token) return std::optional<FindingCursor>();
  const json& t = **token;
  if (!t.contains("r") || !t["r"].is_string() || !t.contains("p") || !t["p"].is_string() || !IsInt(t, "l") ||
      !IsInt(t, "o") || !IsValidUtf8(t["r"].get<std::string>()) || !IsValidUtf8(t["p"].get<std::string>())) {
    return InvalidToken();
  }
  return std::optional<FindingCursor>(
      FindingCursor{t["r"].get<std::string>(), t["p"].get<std::string>(), t["l"].get<int>(), t["o"].get<int>()});
}

}  // namespace hipforge::server::http
