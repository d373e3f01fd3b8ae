#include "worker/translate/repo/cmake_tokenizer.h"

#include <cctype>

namespace hipforge::translate {
namespace {

class Tokenizer {
 public:
  explicit Tokenizer(const std::string& text) : text_(text) {}

  CMakeFile Run() {
    CMakeFile file;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '#') {
        SkipComment();
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        CMakeCommand command;
        if (!ReadCommand(command)) {
          file.complete = false;
          break;
        }
        if (!command.name.empty()) file.commands.push_back(std::move(command));
      } else {
        if (c == '\n') ++line_;
        ++pos_;
      }
    }
    return file;
  }

 private:
  // `[[...]]`, `[=[...]=]`: returns the number of '=' when a bracket opens at pos_, else -1.
  int BracketOpenLevel() const {
    if (pos_ >= text_.size() || text_[pos_] != '[') return -1;
    size_t p = pos_ + 1;
    int level = 0;
    while (p < text_.size() && text_[p] == '=') ++level, ++p;
    return p < text_.size() && text_[p] == '[' ? level : -1;
  }

  // Consumes a bracket construct; returns its content.
  std::string ReadBracket(int level) {
    const std::string close = "]" + std::string(static_cast<size_t>(level), '=') + "]";
    const size_t content_start = pos_ + 2 + static_cast<size_t>(level);
    size_t end = text_.find(close, content_start);
    if (end == std::string::npos) end = text_.size();
    std::string content = text_.substr(content_start, end - content_start);
    for (char c : content) line_ += c == '\n';
    pos_ = std::min(text_.size(), end + close.size());
    return content;
  }

  void SkipComment() {
    ++pos_;  // '#'
    if (int level = BracketOpenLevel(); level >= 0) {
      ReadBracket(level);
      return;
    }
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
  }

  std::string IndentBefore(size_t offset) const {
    size_t start = offset;
    while (start > 0 && (text_[start - 1] == ' ' || text_[start - 1] == '\t')) --start;
    if (start > 0 && text_[start - 1] != '\n') return "";
    return text_.substr(start, offset - start);
  }

  bool ReadCommand(CMakeCommand& command) {
    command.offset = static_cast<uint32_t>(pos_);
    command.line = line_;
    command.indent = IndentBefore(pos_);
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      command.name += text_[pos_++];
    }
    for (char c : command.name) command.lower_name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    if (pos_ >= text_.size() || text_[pos_] != '(') {
      // Not a command (stray word); skip it.
      command.arguments.clear();
      command.name.clear();
      return SkipStray();
    }
    ++pos_;
    int depth = 1;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        SkipComment();
      } else if (c == '(') {
        command.arguments.push_back({CMakeArgumentKind::kParen, static_cast<uint32_t>(pos_), 1, "("});
        ++depth;
        ++pos_;
      } else if (c == ')') {
        if (--depth == 0) {
          ++pos_;
          command.end = static_cast<uint32_t>(pos_);
          return true;
        }
        command.arguments.push_back({CMakeArgumentKind::kParen, static_cast<uint32_t>(pos_), 1, ")"});
        ++pos_;
      } else if (c == '"') {
        ReadQuoted(command);
      } else if (int level = BracketOpenLevel(); level >= 0) {
        const size_t start = pos_;
        std::string content = ReadBracket(level);
        command.arguments.push_back({CMakeArgumentKind::kBracket, static_cast<uint32_t>(start),
                                     static_cast<uint32_t>(pos_ - start), std::move(content)});
      } else {
        ReadUnquoted(command);
      }
    }
    return false;
  }

  bool SkipStray() {
    // A lone identifier without '(' is not valid CMake; move on so the rest still parses.
    return true;
  }

  void ReadQuoted(CMakeCommand& command) {
    const size_t start = pos_++;
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) {
        value += text_[pos_++];
      }
      if (text_[pos_] == '\n') ++line_;
      value += text_[pos_++];
    }
    pos_ = std::min(text_.size(), pos_ + 1);
    command.arguments.push_back({CMakeArgumentKind::kQuoted, static_cast<uint32_t>(start),
                                 static_cast<uint32_t>(pos_ - start), std::move(value)});
  }

  void ReadUnquoted(CMakeCommand& command) {
    const size_t start = pos_;
    std::string value;
    int genex_depth = 0;  // `$<...>` may hold characters that would otherwise end the argument
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\\' && pos_ + 1 < text_.size()) {
        value += text_.substr(pos_, 2);
        pos_ += 2;
        continue;
      }
      if (c == '$' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '<') ++genex_depth;
      if (c == '>' && genex_depth > 0) --genex_depth;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')' || c == '#') break;
      if (c == '"' && genex_depth == 0) {
        // Legacy `a"b c"d` arguments: keep the quoted part inside the argument.
        value += c;
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') value += text_[pos_++];
        if (pos_ < text_.size()) value += text_[pos_++];
        continue;
      }
      value += c;
      ++pos_;
    }
    command.arguments.push_back({CMakeArgumentKind::kUnquoted, static_cast<uint32_t>(start),
                                 static_cast<uint32_t>(pos_ - start), std::move(value)});
  }

  const std::string& text_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
};

}  // namespace

CMakeFile TokenizeCMake(const std::string& content) { return Tokenizer(content).Run(); }

}  // namespace hipforge::translate
