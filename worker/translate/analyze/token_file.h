#pragma once
// A source or script file held in memory with its line table, and (for C/C++/CUDA) its raw tokens.
// Token rules and line rules work on this; it needs no Clang headers.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hipforge::translate::analyze {

enum class FileKind { kCudaSource, kCppSource, kHeader, kCMake, kMakefile, kShell, kDockerfile, kCiConfig, kPython,
                      kOther };
const char* FileKindName(FileKind kind);
bool IsSourceKind(FileKind kind);  // C, C++, CUDA sources and headers

enum class TokenKind { kIdentifier, kNumber, kString, kChar, kPunct, kHash };

struct Token {
  TokenKind kind;
  std::string_view text;     // view into TextFile::content (string tokens include their quotes)
  uint32_t offset = 0;
  uint32_t scope = 0;        // offset+1 of the outermost non-namespace '{' enclosing it; 0 at file scope
  bool at_line_start = false;
  bool in_directive = false; // part of a preprocessor directive line
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

// Reads and classifies a file; tokens are lexed for source kinds.
FileKind ClassifyFile(const std::filesystem::path& relative_path, std::string_view content);

// The value of a C integer literal ("0xFFFFFFFFu" -> 4294967295); false when not an integer literal.
bool ParseIntegerLiteral(std::string_view text, unsigned long long* value);
// The contents of a string-literal token without quotes and prefixes (escapes left as written).
std::string_view StringLiteralBody(std::string_view token_text);

}  // namespace hipforge::translate::analyze
