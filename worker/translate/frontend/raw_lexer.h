#pragma once
// The one C/C++/CUDA lexer for work without a parse: Clang's raw lexer in CUDA C++17 mode (no preprocessing,
// comments skipped), tokens with byte offsets into the original bytes. Read by the translator's token pass and the
// token-level rewrites beside it (core/token_pass.cc, token_rewrites.h, token_sites.h) and by the analyzer's token
// rules (analyze/token_file.h). Lives in the front end so the analyzer needs no link to the translator.
// tests/analyze/analyzer_api_test.cc (TokenFileTest); the token pass through ctest -L translate.
#include <cstdint>
#include <string_view>
#include <vector>

#include "clang/Basic/TokenKinds.h"

namespace hipforge::translate {

struct RawToken {
  clang::tok::TokenKind kind;  // raw_identifier for identifiers and keywords
  uint32_t begin;              // byte offset in the content
  uint32_t length;
  bool line_start;  // first token of its line (a backslash-newline continues the line)
  uint32_t end() const { return begin + length; }
};

// Every token of `content`. `content` must be followed by a NUL byte (any std::string's data() is), as Clang's
// lexer reads one past the end.
std::vector<RawToken> LexAll(std::string_view content);

inline bool IsIdentifier(const RawToken& token) { return token.kind == clang::tok::raw_identifier; }

}  // namespace hipforge::translate
