#pragma once
// Raw tokens of one file's original bytes (no preprocessing), with byte offsets: what the token pass and the
// token-level rewrites beside it (token_rewrites.h) walk.
#include <cstdint>
#include <string_view>
#include <vector>

#include "clang/Basic/TokenKinds.h"

namespace hipforge::translate {

struct RawToken {
  clang::tok::TokenKind kind;
  uint32_t begin;
  uint32_t length;
  bool line_start;
  uint32_t end() const { return begin + length; }
};

// Every token of `content` as CUDA C++17 lexes it raw (identifiers and keywords both come as raw_identifier).
std::vector<RawToken> LexAll(std::string_view content);

inline bool IsIdentifier(const RawToken& token) { return token.kind == clang::tok::raw_identifier; }

}  // namespace hipforge::translate
