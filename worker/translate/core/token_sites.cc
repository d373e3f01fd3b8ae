#include "worker/translate/core/token_sites.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "worker/translate/frontend/c_literals.h"

namespace hipforge::translate {
namespace {

std::string_view Text(std::string_view content, const RawToken& token) {
  return content.substr(token.begin, token.length);
}
std::string_view Text(std::string_view content, ByteRange range) {
  return content.substr(range.begin, range.end - range.begin);
}

bool IsModifyingOperator(clang::tok::TokenKind kind);
bool IsAddressOfContext(std::span<const RawToken> tokens, size_t amp);
bool IsTripleGreaterAt(std::span<const RawToken> tokens, size_t i, size_t* after);
size_t SkipTemplateArgumentsBack(std::span<const RawToken> tokens, size_t close);

}  // namespace

// True when `mask` is one identifier naming a block-scope variable declared `T name = <all-ones literal>;`
// that nothing in its scope assigns, increments or takes the address of.
bool IsFullMaskVariable(std::string_view content, std::span<const RawToken> tokens, ByteRange mask) {
  const auto use = std::lower_bound(tokens.begin(), tokens.end(), mask.begin,
                                    [](const RawToken& token, uint32_t offset) { return token.begin < offset; });
  if (use == tokens.end() || use->begin != mask.begin || use->end() != mask.end || !IsIdentifier(*use)) {
    return false;
  }
  const std::string_view name = Text(content, *use);
  const size_t use_index = static_cast<size_t>(use - tokens.begin());
  // The nearest declaration visible from the use: walk back; blocks closed before the use do not count.
  int depth = 0;
  size_t declaration = 0;
  bool found = false;
  for (size_t k = use_index; k-- > 1;) {
    const auto kind = tokens[k].kind;
    if (kind == clang::tok::r_brace) ++depth;
    if (kind == clang::tok::l_brace) --depth;
    if (depth <= 0 && IsIdentifier(tokens[k]) && Text(content, tokens[k]) == name && k + 1 < tokens.size() &&
        tokens[k + 1].kind == clang::tok::equal && IsIdentifier(tokens[k - 1]) &&
        !IsAssignmentContext(content, tokens[k - 1])) {
      declaration = k;
      found = true;
      break;
    }
  }
  if (!found) return false;
  // The initialiser runs to the ';' and must be an all-ones literal.
  size_t semi = declaration + 2;
  while (semi < tokens.size() && tokens[semi].kind != clang::tok::semi && tokens[semi].kind != clang::tok::comma) {
    ++semi;
  }
  if (semi >= tokens.size() || semi == declaration + 2) return false;
  if (!IsFullWarpMaskLiteral(Text(content, ByteRange{tokens[declaration + 2].begin, tokens[semi - 1].end()})))
    return false;
  // A const or constexpr declaration cannot change, wherever it is.
  for (size_t k = declaration; k-- > 0;) {
    const auto kind = tokens[k].kind;
    if (kind == clang::tok::semi || kind == clang::tok::l_brace || kind == clang::tok::r_brace) break;
    if (IsIdentifier(tokens[k]) && (Text(content, tokens[k]) == "const" || Text(content, tokens[k]) == "constexpr"))
      return true;
  }
  // Block scope only: the scope's '{' follows ')' (function body, if, for), ';', '{', '}', 'else' or 'do';
  // a namespace or class brace follows a name, and a global could change anywhere.
  int scope_depth = 0;
  size_t open = declaration;
  for (; open-- > 0;) {
    if (tokens[open].kind == clang::tok::r_brace) ++scope_depth;
    if (tokens[open].kind == clang::tok::l_brace && scope_depth-- == 0) break;
  }
  if (open == static_cast<size_t>(-1) || open == 0) return false;
  const RawToken& before_open = tokens[open - 1];
  const bool block =
      before_open.kind == clang::tok::r_paren || before_open.kind == clang::tok::semi ||
      before_open.kind == clang::tok::l_brace || before_open.kind == clang::tok::r_brace ||
      (IsIdentifier(before_open) && (Text(content, before_open) == "else" || Text(content, before_open) == "do" ||
                                     Text(content, before_open) == "const"));
  if (!block) return false;
  // Nothing in the rest of the scope may change it.
  depth = 0;
  for (size_t k = semi; k < tokens.size(); ++k) {
    const auto kind = tokens[k].kind;
    if (kind == clang::tok::l_brace) ++depth;
    if (kind == clang::tok::r_brace && depth-- == 0) break;
    if (!IsIdentifier(tokens[k]) || Text(content, tokens[k]) != name) continue;
    if (k + 1 < tokens.size() && IsModifyingOperator(tokens[k + 1].kind)) return false;
    if (tokens[k - 1].kind == clang::tok::plusplus || tokens[k - 1].kind == clang::tok::minusminus) return false;
    if (tokens[k - 1].kind == clang::tok::amp && IsAddressOfContext(tokens, k - 1)) return false;
  }
  return true;
}

// A keyword before `name = ...` makes it an assignment statement, not a declaration.
bool IsAssignmentContext(std::string_view content, const RawToken& before) {
  const std::string_view text = Text(content, before);
  return text == "return" || text == "case" || text == "else" || text == "do" || text == "goto" || text == "throw" ||
         text == "co_return";
}

bool IsFullWarpMaskLiteral(std::string_view text) {
  std::string compact;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')') compact += c;
  }
  if (compact == "-1" || compact == "~0" || compact == "~0u" || compact == "~0U" || compact == "~0ull" ||
      compact == "~0ULL") {
    return true;
  }
  unsigned long long value = 0;
  return ParseIntegerLiteral(compact, &value) && (value == 0xffffffffULL || value == ~0ULL);
}

namespace {

bool IsModifyingOperator(clang::tok::TokenKind kind) {
  switch (kind) {
    case clang::tok::equal:
    case clang::tok::plusequal:
    case clang::tok::minusequal:
    case clang::tok::starequal:
    case clang::tok::slashequal:
    case clang::tok::percentequal:
    case clang::tok::ampequal:
    case clang::tok::pipeequal:
    case clang::tok::caretequal:
    case clang::tok::lesslessequal:
    case clang::tok::greatergreaterequal:
    case clang::tok::plusplus:
    case clang::tok::minusminus: return true;
    default: return false;
  }
}

// '&' is address-of (not bitwise and) when what precedes it cannot end an operand.
bool IsAddressOfContext(std::span<const RawToken> tokens, size_t amp) {
  if (amp == 0) return true;
  const RawToken& before = tokens[amp - 1];
  return !(IsIdentifier(before) || before.kind == clang::tok::numeric_constant || before.kind == clang::tok::r_paren ||
           before.kind == clang::tok::r_square);
}

bool IsTripleGreaterAt(std::span<const RawToken> tokens, size_t i, size_t* after) {
  if (tokens[i].kind == clang::tok::greatergreatergreater) {
    *after = i + 1;
    return true;
  }
  if (tokens[i].kind == clang::tok::greatergreater && i + 1 < tokens.size() &&
      tokens[i + 1].kind == clang::tok::greater) {
    *after = i + 2;
    return true;
  }
  return false;
}

// Skips back over balanced template arguments ending at `close` ('>' or '>>'); returns the index of the
// matching '<', or npos.
size_t SkipTemplateArgumentsBack(std::span<const RawToken> tokens, size_t close) {
  int depth = 0;
  for (size_t k = close + 1; k-- > 0;) {
    const auto kind = tokens[k].kind;
    if (kind == clang::tok::greater) depth += 1;
    if (kind == clang::tok::greatergreater) depth += 2;
    if (kind == clang::tok::less && --depth == 0) return k;
    if (kind == clang::tok::semi || kind == clang::tok::l_brace || kind == clang::tok::r_brace) break;
  }
  return std::string::npos;
}

}  // namespace

bool IsSplitTripleLess(std::span<const RawToken> tokens, size_t i) {
  return tokens[i].kind == clang::tok::lessless && i + 1 < tokens.size() && tokens[i + 1].kind == clang::tok::less;
}
std::optional<LaunchSite> LaunchAt(std::span<const RawToken> tokens, size_t open) {
  if (open == 0) return std::nullopt;
  // The kernel name, walking back: name [<template args>] [:: name [<template args>]]...
  size_t first = open;
  bool template_args = false;
  size_t k = open - 1;
  while (true) {
    if (tokens[k].kind == clang::tok::greater || tokens[k].kind == clang::tok::greatergreater) {
      const size_t less = SkipTemplateArgumentsBack(tokens, k);
      if (less == std::string::npos || less == 0) return std::nullopt;
      template_args = true;
      k = less - 1;
    }
    if (!IsIdentifier(tokens[k])) return std::nullopt;
    first = k;
    if (k >= 2 && tokens[k - 1].kind == clang::tok::coloncolon &&
        (IsIdentifier(tokens[k - 2]) || tokens[k - 2].kind == clang::tok::greater)) {
      k -= 2;
      continue;
    }
    if (k >= 1 && tokens[k - 1].kind == clang::tok::coloncolon) first = k - 1;
    break;
  }
  LaunchSite site;
  site.callee = {tokens[first].begin, tokens[open - 1].end()};
  site.template_callee = template_args;
  size_t j = open + (tokens[open].kind == clang::tok::lesslessless ? 1 : 2);
  size_t arg_begin = j;
  int depth = 0;
  size_t after_config = 0;
  for (; j < tokens.size(); ++j) {
    const auto kind = tokens[j].kind;
    if (depth == 0 && IsTripleGreaterAt(tokens, j, &after_config)) break;
    if (kind == clang::tok::l_paren || kind == clang::tok::l_square || kind == clang::tok::l_brace) ++depth;
    if (kind == clang::tok::r_paren || kind == clang::tok::r_square || kind == clang::tok::r_brace) --depth;
    if (kind == clang::tok::comma && depth == 0) {
      if (j == arg_begin) return std::nullopt;
      site.config.push_back({tokens[arg_begin].begin, tokens[j - 1].end()});
      arg_begin = j + 1;
    }
  }
  if (j >= tokens.size() || j == arg_begin) return std::nullopt;
  if (tokens[open].kind != clang::tok::lesslessless) {
    site.open_chevrons = ByteRange{tokens[open].begin, tokens[open + 1].end()};
  }
  if (tokens[j].kind != clang::tok::greatergreatergreater) {
    site.close_chevrons = ByteRange{tokens[j].begin, tokens[j + 1].end()};
  }
  site.config.push_back({tokens[arg_begin].begin, tokens[j - 1].end()});
  if (site.config.size() < 2 || site.config.size() > 4) return std::nullopt;
  if (after_config >= tokens.size() || tokens[after_config].kind != clang::tok::l_paren) return std::nullopt;
  depth = 0;
  size_t close = after_config + 1;
  for (; close < tokens.size(); ++close) {
    const auto kind = tokens[close].kind;
    if (kind == clang::tok::l_paren) ++depth;
    if (kind == clang::tok::r_paren && depth-- == 0) break;
  }
  if (close >= tokens.size()) return std::nullopt;
  if (close > after_config + 1) site.args = ByteRange{tokens[after_config + 1].begin, tokens[close - 1].end()};
  site.whole = {site.callee.begin, tokens[close].end()};
  return site;
}

}  // namespace hipforge::translate
