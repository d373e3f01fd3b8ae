#pragma once
// A small CMake-language tokenizer: the file as a list of command invocations with their arguments and byte
// offsets, so rewriters edit single arguments in place and keep comments and layout.
#include <cstdint>
#include <string>
#include <vector>

namespace hipforge::translate {

enum class CMakeArgumentKind : uint8_t { kUnquoted, kQuoted, kBracket, kParen };

struct CMakeArgument {
  CMakeArgumentKind kind = CMakeArgumentKind::kUnquoted;
  uint32_t offset = 0;  // of the first byte (the quote/bracket included)
  uint32_t length = 0;
  std::string text;  // the value: quotes/brackets removed, escapes kept as written
};

struct CMakeCommand {
  std::string name;                      // as written
  std::string lower_name;                // command names are case-insensitive
  uint32_t offset = 0;                   // of the name
  uint32_t end = 0;                      // one past the closing ')'
  uint32_t line = 0;                     // 1-based
  std::string indent;                    // whitespace before the name on its line
  std::vector<CMakeArgument> arguments;  // parens that group arguments are kParen entries ("(" or ")")
};

struct CMakeFile {
  std::vector<CMakeCommand> commands;
  bool complete = true;  // false: a command was not closed (the rest of the file is ignored by rewriters)
};

CMakeFile TokenizeCMake(const std::string& content);

}  // namespace hipforge::translate
