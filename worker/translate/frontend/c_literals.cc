#include "worker/translate/frontend/c_literals.h"

#include <cctype>
#include <string>

namespace hipforge::translate {

bool ParseIntegerLiteral(std::string_view text, unsigned long long* value) {
  std::string digits;
  for (char c : text) {
    if (c != '\'') digits.push_back(c);
  }
  while (!digits.empty() &&
         (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) {
    digits.pop_back();
  }
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits[0]))) return false;
  int base = 10;
  size_t start = 0;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    start = 2;
  } else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2;
    start = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    start = 1;
  }
  if (start >= digits.size()) return false;
  unsigned long long result = 0;
  for (size_t i = start; i < digits.size(); ++i) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[i])));
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (digit < 0 || digit >= base) return false;
    if (result > (~0ULL - static_cast<unsigned>(digit)) / static_cast<unsigned>(base)) return false;  // overflow
    result = result * base + static_cast<unsigned>(digit);
  }
  *value = result;
  return true;
}

std::string_view StringLiteralBody(std::string_view token_text) {
  const size_t open = token_text.find_first_of("\"'");
  if (open == std::string_view::npos || token_text.size() < open + 2) return {};
  std::string_view body = token_text.substr(open + 1, token_text.size() - open - 2);
  if (open > 0 && token_text[open - 1] == 'R') {  // raw string: strip delimiter(...)delimiter
    const size_t paren = body.find('(');
    const size_t close = body.rfind(')');
    if (paren != std::string_view::npos && close != std::string_view::npos && close > paren) {
      body = body.substr(paren + 1, close - paren - 1);
    }
  }
  return body;
}

}  // namespace hipforge::translate
