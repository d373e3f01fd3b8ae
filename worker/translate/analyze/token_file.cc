#include "worker/translate/analyze/token_file.h"

#include <algorithm>
#include <cctype>

namespace hipforge::translate::analyze {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// Longest-first punctuators; everything else is a one-character punctuator.
constexpr std::string_view kPunctuators[] = {"<<=", ">>=", "...", "->*", "::", "->", "<<", ">>", "<=", ">=", "==",
                                             "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
                                             "++", "--", ".*"};

// A small C/C++ lexer: enough to find identifiers, literals and punctuation outside comments. Line
// continuations are treated as whitespace; raw strings and encoding prefixes are handled.
std::vector<Token> Lex(const std::string& text) {
  std::vector<Token> tokens;
  const size_t size = text.size();
  size_t i = 0;
  bool line_start = true;
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
  auto push = [&](TokenKind kind, size_t begin, size_t end) {
    Token token{kind, std::string_view(text).substr(begin, end - begin), static_cast<uint32_t>(begin),
                current_scope(), line_start, in_directive, {}};
    if (expect_directive_name) {
      directive = token.text;
      expect_directive_name = false;
    }
    if (kind == TokenKind::kHash && line_start) {
      in_directive = true;
      token.in_directive = true;
      directive = {};
      expect_directive_name = true;
    }
    if (token.in_directive) token.directive = directive;
    line_start = false;
    tokens.push_back(token);
  };
  while (i < size) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      in_directive = false;
      expect_directive_name = false;
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < size && (text[i + 1] == '\n' || (text[i + 1] == '\r' && i + 2 < size && text[i + 2] == '\n'))) {
      i += text[i + 1] == '\n' ? 2 : 3;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < size && text[i + 1] == '/') {
      while (i < size && text[i] != '\n') {
        if (text[i] == '\\' && i + 1 < size && text[i + 1] == '\n') ++i;
        ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < size && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? size : end + 2;
      continue;
    }
    if (IsIdentStart(c)) {
      size_t j = i;
      while (j < size && IsIdentChar(text[j])) ++j;
      const std::string_view word(text.data() + i, j - i);
      // Encoding prefixes and raw strings.
      if (j < size && (text[j] == '"' || text[j] == '\'') &&
          (word == "L" || word == "u" || word == "U" || word == "u8" || word == "R" || word == "LR" ||
           word == "uR" || word == "UR" || word == "u8R")) {
        if (word.back() == 'R' && text[j] == '"') {
          const size_t paren = text.find('(', j);
          if (paren != std::string::npos) {
            const std::string delimiter = ")" + text.substr(j + 1, paren - j - 1) + "\"";
            const size_t end = text.find(delimiter, paren);
            const size_t stop = end == std::string::npos ? size : end + delimiter.size();
            push(TokenKind::kString, i, stop);
            i = stop;
            continue;
          }
        }
        i = j;  // fall through to the quote handling below with the prefix included
        const char quote = text[j];
        size_t k = j + 1;
        while (k < size && text[k] != quote && text[k] != '\n') k += text[k] == '\\' ? 2 : 1;
        k = std::min(size, k + 1);
        push(quote == '"' ? TokenKind::kString : TokenKind::kChar, static_cast<size_t>(word.data() - text.data()), k);
        i = k;
        continue;
      }
      push(TokenKind::kIdentifier, i, j);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < size && std::isdigit(static_cast<unsigned char>(text[i + 1])))) {
      size_t j = i + 1;
      while (j < size) {
        const char d = text[j];
        if (IsIdentChar(d) || d == '.' || d == '\'') {
          ++j;
        } else if ((d == '+' || d == '-') && (text[j - 1] == 'e' || text[j - 1] == 'E' || text[j - 1] == 'p' || text[j - 1] == 'P')) {
          ++j;
        } else {
          break;
        }
      }
      push(TokenKind::kNumber, i, j);
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      size_t k = i + 1;
      while (k < size && text[k] != c && text[k] != '\n') k += text[k] == '\\' ? 2 : 1;
      k = std::min(size, k + 1);
      // In `#include <...>`-free code an apostrophe inside a directive (e.g. #error don't) must not swallow lines.
      push(c == '"' ? TokenKind::kString : TokenKind::kChar, i, k);
      i = k;
      continue;
    }
    if (c == '#') {
      push(TokenKind::kHash, i, i + 1);
      ++i;
      continue;
    }
    size_t length = 1;
    for (std::string_view punct : kPunctuators) {
      if (text.compare(i, punct.size(), punct) == 0) {
        length = punct.size();
        break;
      }
    }
    if (c == '{') {
      bool transparent = false;
      const size_t n = tokens.size();
      if (n >= 1 && tokens[n - 1].text == "namespace") transparent = true;
      if (n >= 2 && tokens[n - 1].kind == TokenKind::kIdentifier &&
          (tokens[n - 2].text == "namespace" || tokens[n - 2].text == "::")) transparent = true;
      if (n >= 2 && tokens[n - 1].text == "\"C\"" && tokens[n - 2].text == "extern") transparent = true;
      push(TokenKind::kPunct, i, i + 1);
      braces.push_back({transparent, static_cast<uint32_t>(i)});
      ++i;
      continue;
    }
    if (c == '}') {
      if (!braces.empty()) braces.pop_back();
      push(TokenKind::kPunct, i, i + 1);
      ++i;
      continue;
    }
    push(TokenKind::kPunct, i, i + length);
    i += length;
  }
  return tokens;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

const char* FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kCudaSource: return "cuda-source";
    case FileKind::kCppSource: return "cpp-source";
    case FileKind::kHeader: return "header";
    case FileKind::kCMake: return "cmake";
    case FileKind::kMakefile: return "makefile";
    case FileKind::kShell: return "shell";
    case FileKind::kDockerfile: return "dockerfile";
    case FileKind::kCiConfig: return "ci";
    case FileKind::kPython: return "python";
    case FileKind::kOther: return "other";
  }
  return "other";
}

bool IsSourceKind(FileKind kind) {
  return kind == FileKind::kCudaSource || kind == FileKind::kCppSource || kind == FileKind::kHeader;
}

FileKind ClassifyFile(const std::filesystem::path& relative_path, std::string_view content) {
  const std::string name = relative_path.filename().string();
  const std::string lower = Lower(name);
  const std::string ext = Lower(relative_path.extension().string());
  if (ext == ".cu") return FileKind::kCudaSource;
  if (ext == ".cuh" || ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".inl" ||
      ext == ".inc" || ext == ".tcc") {
    return FileKind::kHeader;
  }
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".c++") return FileKind::kCppSource;
  if (lower == "cmakelists.txt" || ext == ".cmake") return FileKind::kCMake;
  if (lower == "makefile" || lower == "gnumakefile" || lower.rfind("makefile.", 0) == 0 || ext == ".mk" ||
      ext == ".mak" || EndsWith(lower, ".make")) {
    return FileKind::kMakefile;
  }
  if (lower == "dockerfile" || lower.rfind("dockerfile.", 0) == 0 || ext == ".dockerfile" ||
      lower == "containerfile") {
    return FileKind::kDockerfile;
  }
  if (ext == ".yml" || ext == ".yaml" || lower == "jenkinsfile") return FileKind::kCiConfig;
  if (ext == ".py") return FileKind::kPython;
  if (ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh" || ext == ".slurm" || ext == ".pbs" ||
      ext == ".sbatch") {
    return FileKind::kShell;
  }
  if (content.rfind("#!", 0) == 0) {
    const std::string_view first_line = content.substr(0, content.find('\n'));
    if (first_line.find("python") != std::string_view::npos) return FileKind::kPython;
    if (first_line.find("sh") != std::string_view::npos) return FileKind::kShell;
  }
  return FileKind::kOther;
}

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

bool ParseIntegerLiteral(std::string_view text, unsigned long long* value) {
  std::string digits;
  for (char c : text) {
    if (c != '\'') digits.push_back(c);
  }
  while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) {
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

}  // namespace hipforge::translate::analyze
