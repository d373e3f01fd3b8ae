#pragma once
// A source or script file held in memory with its line table, and (for C/C++/CUDA) its raw tokens: those of
// frontend/raw_lexer.h (Clang's raw lexer, which the translator's token pass reads too). Token rules and line
// rules work on this; this header needs no Clang headers.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/source_files.h"
#include "worker/translate/frontend/c_literals.h"

namespace hipforge::translate::analyze {

// File kinds are common/source_files.h's (one classifier for the analyzer, the repository pass and the server).
using hipforge::FileKind;
using hipforge::FileKindName;
using hipforge::IsSourceKind;

enum class TokenKind { kIdentifier, kNumber, kString, kChar, kPunct, kHash };

struct Token {
  TokenKind kind;
  std::string_view text;  // view into TextFile::content (string tokens include their quotes)
  uint32_t offset = 0;
  uint32_t scope = 0;  // offset+1 of the outermost non-namespace '{' enclosing it; 0 at file scope
  bool at_line_start = false;
  bool in_directive = false;   // part of a preprocessor directive line
  std::string_view directive;  // its directive name ("include", "define", "if", ...) when in_directive
};

class TextFile {
 public:
  TextFile(std::string relative_path, FileKind kind, std::string content);
  const std::string& path() const { return path_; }
  FileKind kind() const { return kind_; }
  const std::string& content() const { return content_; }
  // 1-based line and column of a byte offset.
  std::pair<uint32_t, uint32_t> LineColumn(uint32_t offset) const;
  uint32_t LineCount() const { return static_cast<uint32_t>(line_starts_.size()); }
  std::string_view Line(uint32_t line) const;  // 1-based, without the newline
  uint32_t LineStart(uint32_t line) const { return line_starts_[line - 1]; }

  // Raw tokens (C/C++/CUDA only; empty for other kinds). Comments are skipped.
  const std::vector<Token>& tokens() const { return tokens_; }
  // Ranges of the file that the AST did not see (preprocessor-skipped blocks); token versions of AST rules
  // run there. When the whole file fell back to tokens, this covers the whole file.
  std::vector<std::pair<uint32_t, uint32_t>> fallback_ranges;
  bool InFallbackRange(uint32_t offset) const;
  // Index of the token at `offset`, or tokens().size().
  size_t TokenIndexAt(uint32_t offset) const;

 private:
  std::string path_;
  FileKind kind_;
  std::string content_;
  std::vector<uint32_t> line_starts_;
  std::vector<Token> tokens_;
};

// ParseIntegerLiteral and StringLiteralBody: frontend/c_literals.h (shared with the translator's token pass).

}  // namespace hipforge::translate::analyze
