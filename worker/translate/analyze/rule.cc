#include "worker/translate/analyze/rule.h"

#include <cctype>

#include "clang/Basic/SourceManager.h"

namespace hipforge::translate::analyze {

const char* RuleClassName(RuleClass rule_class) {
  switch (rule_class) {
    case RuleClass::kWavefront: return "wavefront";
    case RuleClass::kArchitecture: return "architecture";
    case RuleClass::kLibrary: return "library";
    case RuleClass::kRuntime: return "runtime";
    case RuleClass::kBuild: return "build";
  }
  return "runtime";
}

std::optional<std::string> FindingSink::RelativePath(std::string_view file_name) {
  if (auto it = path_cache_.find(file_name); it != path_cache_.end()) return it->second;
  std::error_code error;
  const auto canonical = std::filesystem::weakly_canonical(std::filesystem::path(file_name), error);
  std::optional<std::string> result;
  if (!error) {
    const auto relative = canonical.lexically_relative(root_);
    if (!relative.empty() && relative.native().rfind("..", 0) != 0) result = relative.generic_string();
  }
  path_cache_.emplace(std::string(file_name), result);
  return result;
}

clang::SourceLocation Rule::PlacedLocation(const clang::SourceManager& sm, clang::SourceLocation location,
                                           MacroPlacement placement) {
  if (!location.isMacroID()) return location;
  if (placement == MacroPlacement::kSpelling) {
    const clang::SourceLocation spelling = sm.getSpellingLoc(location);
    const clang::FileID file = sm.getFileID(spelling);
    if (const auto entry = sm.getFileEntryRefForID(file)) {
      llvm::StringRef name = entry->getFileEntry().tryGetRealPathName();
      if (name.empty()) name = entry->getName();
      if (sink_.RelativePath(std::string_view(name.data(), name.size()))) return spelling;
    }
  }
  return sm.getFileLoc(location);
}

bool Rule::Report(const clang::SourceManager& sm, clang::SourceLocation location, MacroPlacement placement,
                  std::string message, std::string fix, std::vector<EditSpec> edits) {
  if (location.isInvalid()) return false;
  const clang::SourceLocation placed = PlacedLocation(sm, location, placement);
  const auto [file, offset] = sm.getDecomposedLoc(placed);
  const auto entry = sm.getFileEntryRefForID(file);
  if (!entry) return false;
  llvm::StringRef name = entry->getFileEntry().tryGetRealPathName();
  if (name.empty()) name = entry->getName();
  const auto relative = sink_.RelativePath(std::string_view(name.data(), name.size()));
  if (!relative) return false;
  Finding finding;
  finding.rule_id = info().id;
  finding.severity = info().severity;
  finding.location.path = *relative;
  finding.location.line = sm.getLineNumber(file, offset);
  finding.location.column = sm.getColumnNumber(file, offset);
  finding.message = std::move(message);
  finding.fix = std::move(fix);
  for (auto& edit : edits) {
    finding.edits.push_back(TextEdit{edit.offset, edit.length, std::move(edit.replacement), info().id});
  }
  sink_.Add(std::move(finding));
  return true;
}

void Rule::Report(const TextFile& file, uint32_t offset, std::string message, std::string fix,
                  std::vector<EditSpec> edits) {
  Finding finding;
  finding.rule_id = info().id;
  finding.severity = info().severity;
  finding.location.path = file.path();
  const auto [line, column] = file.LineColumn(offset);
  finding.location.line = line;
  finding.location.column = column;
  finding.message = std::move(message);
  finding.fix = std::move(fix);
  for (auto& edit : edits) {
    finding.edits.push_back(TextEdit{edit.offset, edit.length, std::move(edit.replacement), info().id});
  }
  sink_.Add(std::move(finding));
}

size_t MatchingParen(const std::vector<Token>& tokens, size_t open) {
  int depth = 0;
  for (size_t i = open; i < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kPunct) continue;
    if (tokens[i].text == "(") ++depth;
    if (tokens[i].text == ")" && --depth == 0) return i;
  }
  return tokens.size();
}

bool IsCallAt(const std::vector<Token>& tokens, size_t i) {
  if (i >= tokens.size() || tokens[i].kind != TokenKind::kIdentifier) return false;
  if (i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->")) return false;
  size_t next = i + 1;
  if (next < tokens.size() && tokens[next].text == "<") {  // explicit template arguments
    int depth = 0;
    for (; next < tokens.size(); ++next) {
      if (tokens[next].text == "<") ++depth;
      if (tokens[next].text == ">" && --depth == 0) break;
      if (tokens[next].text == ">>") {
        depth -= 2;
        if (depth <= 0) break;
      }
      if (tokens[next].text == ";" || tokens[next].text == "{") return false;
    }
    ++next;
  }
  return next < tokens.size() && tokens[next].text == "(";
}

std::string TargetList(std::span<const std::string> targets, std::string_view separator) {
  std::string list;
  for (const std::string& target : targets) list += (list.empty() ? "" : std::string(separator)) + target;
  return list.empty() ? "<target>" : list;
}

bool ContainsWord(std::string_view text, std::string_view word) {
  size_t position = 0;
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while ((position = text.find(word, position)) != std::string_view::npos) {
    const bool left = position == 0 || !is_word(text[position - 1]);
    const size_t end = position + word.size();
    const bool right = end >= text.size() || !is_word(text[end]);
    if (left && right) return true;
    position = end;
  }
  return false;
}

bool MatchesAny(std::string_view identifier, const std::vector<IdentifierPattern>& patterns) {
  for (const auto& pattern : patterns) {
    if (pattern.prefix ? identifier.rfind(pattern.name, 0) == 0 : identifier == pattern.name) return true;
  }
  return false;
}

std::string_view CodePart(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || (line[i - 1] != '$' && line[i - 1] != '{'))) {
      return line.substr(0, i);
    }
  }
  return line;
}

namespace {

bool ExpandedAt(std::string_view text, size_t position) {
  if (position >= 1 && text[position - 1] == '$') return true;
  if (position >= 2 && text[position - 1] == '{' && text[position - 2] == '$') return true;
  // Inside `$( ... )` or backticks: a command substitution runs it.
  int depth = 0;
  bool backtick = false;
  for (size_t i = 0; i < position; ++i) {
    if (text[i] == '`') backtick = !backtick;
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '(') ++depth;
    if (text[i] == ')' && depth > 0) --depth;
  }
  return depth > 0 || backtick;
}

}  // namespace

bool IsProseInString(std::string_view body, size_t position) {
  if (ExpandedAt(body, position)) return false;
  const size_t start = body.find_first_not_of(" \t");
  if (start == std::string_view::npos || start >= position) return false;
  // A command written with a path (/usr/bin/nvidia-smi) still starts the string.
  const std::string_view before = body.substr(start, position - start);
  return before.find_first_of(" \t") != std::string_view::npos || before.find('/') == std::string_view::npos;
}

bool IsProseMention(std::string_view code, size_t position) {
  if (ExpandedAt(code, position)) return false;
  // The command word of the line (Makefile recipes may start with @ or -; Dockerfiles with RUN).
  size_t begin = code.find_first_not_of(" \t@-");
  if (begin != std::string_view::npos && code.compare(begin, 4, "RUN ") == 0)
    begin = code.find_first_not_of(" ", begin + 4);
  if (begin != std::string_view::npos && begin < position) {
    size_t end = begin;
    while (end < code.size() &&
           (std::isalnum(static_cast<unsigned char>(code[end])) || code[end] == '_' || code[end] == '.')) {
      ++end;
    }
    std::string word(code.substr(begin, end - begin));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static constexpr std::string_view kPrinters[] = {"echo", "printf", "print", "message", "puts",
                                                     "say",  "warn",   "die",   "info",    "log"};
    for (std::string_view printer : kPrinters) {
      if (word == printer) return true;
    }
    if (word.rfind("logging.", 0) == 0 || word.rfind("logger.", 0) == 0 || word.rfind("log.", 0) == 0) return true;
  }
  // Inside a quoted string that does not start with the mention.
  char quote = 0;
  size_t open = 0;
  for (size_t i = 0; i < position && i < code.size(); ++i) {
    const char c = code[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
      open = i;
    }
  }
  if (!quote) return false;
  return IsProseInString(code.substr(open + 1), position - open - 1);
}

std::vector<size_t> FindWord(std::string_view text, std::string_view word, std::string_view extra_word_chars) {
  std::vector<size_t> hits;
  auto is_word = [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           extra_word_chars.find(c) != std::string_view::npos;
  };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !is_word(text[at - 1]);
    const size_t end = at + word.size();
    const bool right = end >= text.size() || !is_word(text[end]);
    if (left && right) hits.push_back(at);
  }
  return hits;
}

std::vector<AsmStatement> FindAsmStatements(const std::vector<Token>& tokens) {
  std::vector<AsmStatement> statements;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view word = tokens[i].text;
    if (tokens[i].kind != TokenKind::kIdentifier || (word != "asm" && word != "__asm__" && word != "__asm")) continue;
    size_t open = i + 1;
    while (open < tokens.size() && (tokens[open].text == "volatile" || tokens[open].text == "__volatile__" ||
                                    tokens[open].text == "goto" || tokens[open].text == "inline")) {
      ++open;
    }
    if (open >= tokens.size() || tokens[open].text != "(") continue;
    const size_t close = MatchingParen(tokens, open);
    AsmStatement statement{i, {}};
    for (size_t k = open + 1; k < close && k < tokens.size(); ++k) {
      if (tokens[k].text == ":" || tokens[k].text == "::") break;
      if (tokens[k].kind == TokenKind::kString) statement.text += std::string(StringLiteralBody(tokens[k].text));
    }
    statements.push_back(std::move(statement));
  }
  return statements;
}

bool LooksLikePtx(std::string_view text) {
  static constexpr std::string_view kRegisters[] = {"%laneid",      "%warpid",       "%smid",       "%nsmid",  "%clock",
                                                    "%globaltimer", "%lanemask",     "%tid",        "%ntid",   "%ctaid",
                                                    "%nctaid",      "%dynamic_smem", "%total_smem", "%gridid", "%pm"};
  for (std::string_view reg : kRegisters) {
    if (text.find(reg) != std::string_view::npos) return true;
  }
  static constexpr std::string_view kInstructions[] = {"trap", "exit", "brkpt", "pmevent", "membar", "fence"};
  for (std::string_view instruction : kInstructions) {
    if (ContainsWord(text, instruction)) return true;
  }
  // A typed/qualified opcode: letters (and digits: lop3), then '.', then a PTX type or state space suffix.
  static constexpr std::string_view kSuffixes[] = {
      ".u8",      ".u16",     ".u32",    ".u64",   ".s8",    ".s16",   ".s32",  ".s64",     ".b8",
      ".b16",     ".b32",     ".b64",    ".b128",  ".f16",   ".f16x2", ".bf16", ".f32",     ".f64",
      ".pred",    ".global",  ".shared", ".local", ".const", ".param", ".sync", ".aligned", ".reg",
      ".approx",  ".rn",      ".rz",     ".ftz",   ".sat",   ".wide",  ".lo",   ".hi",      ".acquire",
      ".release", ".relaxed", ".gpu",    ".sys",   ".cta",   ".async", ".ca",   ".cg",      ".cs",
      ".nc",      ".x4",      ".x2",     ".v2",    ".v4",    ".e4m3",  ".tf32"};
  for (size_t dot = text.find('.'); dot != std::string_view::npos; dot = text.find('.', dot + 1)) {
    if (dot == 0 || !std::isalnum(static_cast<unsigned char>(text[dot - 1]))) continue;  // lop3.b32, prmt.b32
    for (std::string_view suffix : kSuffixes) {
      if (text.compare(dot, suffix.size(), suffix) != 0) continue;
      const size_t end = dot + suffix.size();
      if (end >= text.size() || !std::isalnum(static_cast<unsigned char>(text[end]))) return true;
    }
  }
  return false;
}

std::map<std::string, unsigned long long, std::less<>> IntegerMacros(const std::vector<Token>& tokens) {
  std::map<std::string, unsigned long long, std::less<>> macros;
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kHash || tokens[i + 1].text != "define") continue;
    const Token& name = tokens[i + 2];
    size_t value_index = i + 3;
    while (value_index < tokens.size() && tokens[value_index].text == "(" && tokens[value_index].in_directive)
      ++value_index;
    if (value_index >= tokens.size() || !tokens[value_index].in_directive) continue;
    unsigned long long value = 0;
    if (tokens[value_index].kind == TokenKind::kNumber && ParseIntegerLiteral(tokens[value_index].text, &value)) {
      // A function-like macro has '(' right after the name; skip those.
      if (tokens[i + 3].text == "(" && tokens[i + 3].offset == name.offset + name.text.size()) continue;
      macros[std::string(name.text)] = value;
    }
  }
  return macros;
}

}  // namespace hipforge::translate::analyze
