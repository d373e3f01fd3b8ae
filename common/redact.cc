#include "common/redact.h"

#include <cctype>

namespace hipforge {
namespace {

constexpr std::string_view kRedacted = "<redacted>";

bool IsHex(char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); }

size_t HexRun(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size() && IsHex(text[end])) ++end;
  return end - at;
}

bool StartsWithIgnoringCase(std::string_view text, size_t at, std::string_view word) {
  if (text.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
  }
  return true;
}

// "hft_<12 hex>_<secret>": keeps the id, drops the secret (any length, so a truncated token too).
bool RedactToken(std::string_view text, size_t& i, std::string& out) {
  if (text.size() - i < 17 || text[i] != 'h' || text[i + 1] != 'f' || (text[i + 2] != 't' && text[i + 2] != 'w') ||
      text[i + 3] != '_' || HexRun(text, i + 4) != 12 || text[i + 16] != '_') {
    return false;
  }
  const size_t secret = HexRun(text, i + 17);
  if (secret == 0) return false;
  out.append(text.substr(i, 17));
  out.append(kRedacted);
  i += 17 + secret;
  return true;
}

// "scheme://user:password@" -> "scheme://user:<redacted>@".
bool RedactUrlPassword(std::string_view text, size_t& i, std::string& out) {
  if (text.compare(i, 3, "://") != 0) return false;
  size_t at = i + 3;
  size_t colon = std::string_view::npos;
  for (size_t j = at; j < text.size(); ++j) {
    const char c = text[j];
    if (c == '@') {
      if (colon == std::string_view::npos) return false;
      out.append(text.substr(i, colon + 1 - i));
      out.append(kRedacted);
      i = j;  // '@' is copied by the caller
      return true;
    }
    if (c == '/' || c == ' ' || c == '\'' || c == '"' || c == '\n') return false;
    if (c == ':' && colon == std::string_view::npos) colon = j;
  }
  return false;
}

// "password=secret" / "password='se cret'" (libpq key=value strings), also PGPASSWORD=.
bool RedactKeyValuePassword(std::string_view text, size_t& i, std::string& out) {
  size_t key_end = 0;
  if (StartsWithIgnoringCase(text, i, "password="))
    key_end = i + 9;
  else if (StartsWithIgnoringCase(text, i, "pgpassword="))
    key_end = i + 11;
  else
    return false;
  if (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) return false;
  out.append(text.substr(i, key_end - i));
  out.append(kRedacted);
  size_t end = key_end;
  if (end < text.size() && text[end] == '\'') {
    ++end;
    while (end < text.size() && text[end] != '\'') end += text[end] == '\\' ? 2 : 1;
    end = std::min(end + 1, text.size());
  } else {
    // Stops at what ends a value in URLs, shells and JSON strings (so JSON stays valid).
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           std::string_view("&\"';,}\\").find(text[end]) == std::string_view::npos) {
      ++end;
    }
  }
  i = end;
  return true;
}

}  // namespace

std::string RedactSecrets(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (RedactToken(text, i, out) || RedactKeyValuePassword(text, i, out)) continue;
    if (RedactUrlPassword(text, i, out)) {
      out += text[i++];
      continue;
    }
    out += text[i++];
  }
  return out;
}

}  // namespace hipforge
