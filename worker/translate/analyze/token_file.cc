#include "worker/translate/analyze/token_file.h"

#include <algorithm>
#include <cctype>

#include "worker/translate/frontend/raw_lexer.h"

namespace hipforge::translate::analyze {
namespace {

TokenKind KindOf(clang::tok::TokenKind kind) {
  switch (kind) {
    case clang::tok::raw_identifier: return TokenKind::kIdentifier;
    case clang::tok::numeric_constant: return TokenKind::kNumber;
    case clang::tok::string_literal:
    case clang::tok::wide_string_literal:
    case clang::tok::utf8_string_literal:
    case clang::tok::utf16_string_literal:
    case clang::tok::utf32_string_literal: return TokenKind::kString;
    case clang::tok::char_constant:
    case clang::tok::wide_char_constant:
    case clang::tok::utf8_char_constant:
    case clang::tok::utf16_char_constant:
    case clang::tok::utf32_char_constant: return TokenKind::kChar;
    case clang::tok::hash: return TokenKind::kHash;
    default: return TokenKind::kPunct;
  }
}

// The tokens of frontend/raw_lexer.h (Clang's raw lexer, the one the translator's token pass reads) with what
// the token rules need on top: directive membership and the enclosing non-namespace scope.
std::vector<Token> Lex(const std::string& text) {
  std::vector<Token> tokens;
  bool in_directive = false;
  std::string_view directive;
  bool expect_directive_name = false;
  struct Brace {
    bool transparent;
    uint32_t offset;
  };
  std::vector<Brace> braces;
  auto current_scope = [&]() -> uint32_t {
    for (const Brace& brace : braces) {
      if (!brace.transparent) return brace.offset + 1;
    }
    return 0;
  };
  for (const RawToken& raw : LexAll(text)) {
    const TokenKind kind = KindOf(raw.kind);
    if (raw.line_start) {
      in_directive = false;
      expect_directive_name = false;
    }
    if (raw.kind == clang::tok::r_brace && !braces.empty()) braces.pop_back();  // '}' sits in the outer scope
    Token token{kind,
                std::string_view(text).substr(raw.begin, raw.length),
                raw.begin,
                current_scope(),
                raw.line_start,
                in_directive,
                {}};
    if (expect_directive_name) {
      directive = token.text;
      expect_directive_name = false;
    }
    if (kind == TokenKind::kHash && raw.line_start) {
      in_directive = true;
      token.in_directive = true;
      directive = {};
      expect_directive_name = true;
    }
    if (token.in_directive) token.directive = directive;
    // The rules read C++ tokens: a CUDA launch's <<< and >>> (one token each in CUDA mode) are "<<" "<" and
    // ">>" ">" as in `a<b<c<int>>>`, so template-depth counting works on either.
    if (raw.kind == clang::tok::lesslessless || raw.kind == clang::tok::greatergreatergreater) {
      Token second = token;
      token.text = token.text.substr(0, 2);
      second.text = second.text.substr(2);
      second.offset += 2;
      second.at_line_start = false;
      tokens.push_back(token);
      tokens.push_back(second);
      continue;
    }
    if (raw.kind == clang::tok::l_brace) {
      bool transparent = false;
      const size_t n = tokens.size();
      if (n >= 1 && tokens[n - 1].text == "namespace") transparent = true;
      if (n >= 2 && tokens[n - 1].kind == TokenKind::kIdentifier &&
          (tokens[n - 2].text == "namespace" || tokens[n - 2].text == "::"))
        transparent = true;
      if (n >= 2 && tokens[n - 1].text == "\"C\"" && tokens[n - 2].text == "extern") transparent = true;
      braces.push_back({transparent, raw.begin});
    }
    tokens.push_back(token);
  }
  return tokens;
}

}  // namespace

TextFile::TextFile(std::string relative_path, FileKind kind, std::string content)
    : path_(std::move(relative_path)), kind_(kind), content_(std::move(content)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < content_.size(); ++i) {
    if (content_[i] == '\n' && i + 1 <= content_.size()) line_starts_.push_back(static_cast<uint32_t>(i + 1));
  }
  if (line_starts_.size() > 1 && line_starts_.back() == content_.size()) line_starts_.pop_back();
  if (IsSourceKind(kind_)) tokens_ = Lex(content_);
}

std::pair<uint32_t, uint32_t> TextFile::LineColumn(uint32_t offset) const {
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const uint32_t line = static_cast<uint32_t>(it - line_starts_.begin());
  return {line, offset - line_starts_[line - 1] + 1};
}

std::string_view TextFile::Line(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  const uint32_t begin = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(content_.size());
  while (end > begin && (content_[end - 1] == '\n' || content_[end - 1] == '\r')) --end;
  return std::string_view(content_).substr(begin, end - begin);
}

bool TextFile::InFallbackRange(uint32_t offset) const {
  for (const auto& [begin, end] : fallback_ranges) {
    if (offset >= begin && offset < end) return true;
  }
  return false;
}

size_t TextFile::TokenIndexAt(uint32_t offset) const {
  const auto it = std::lower_bound(tokens_.begin(), tokens_.end(), offset,
                                   [](const Token& token, uint32_t value) { return token.offset < value; });
  if (it != tokens_.end() && it->offset == offset) return static_cast<size_t>(it - tokens_.begin());
  return tokens_.size();
}

}  // namespace hipforge::translate::analyze
