#include "worker/translate/core/token_rewrites.h"

#include <algorithm>

namespace hipforge::translate {
namespace {

std::string_view Text(std::string_view content, const RawToken& token) {
  return content.substr(token.begin, token.length);
}

bool IsWord(std::string_view content, const RawToken& token, std::string_view word) {
  return IsIdentifier(token) && Text(content, token) == word;
}

uint32_t LineStart(std::string_view content, uint32_t offset) {
  while (offset > 0 && content[offset - 1] != '\n') --offset;
  return offset;
}

// The end of a directive's logical line (at its '\n', or the end of the file).
uint32_t LogicalLineEnd(std::string_view content, uint32_t offset) {
  while (offset < content.size()) {
    if (content[offset] == '\n' && (offset == 0 || content[offset - 1] != '\\')) break;
    ++offset;
  }
  return offset;
}

struct DirectiveLine {
  std::string_view name;
  uint32_t begin;            // the '#'
  uint32_t end;              // its line's end
  std::vector<size_t> args;  // token indexes after the name, on the line
};

std::vector<DirectiveLine> Directives(std::string_view content, std::span<const RawToken> tokens) {
  std::vector<DirectiveLine> directives;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != clang::tok::hash || !tokens[i].line_start || !IsIdentifier(tokens[i + 1]) ||
        tokens[i + 1].line_start) {
      continue;
    }
    DirectiveLine line{Text(content, tokens[i + 1]), tokens[i].begin, LogicalLineEnd(content, tokens[i + 1].end()), {}};
    for (size_t j = i + 2; j < tokens.size() && tokens[j].begin < line.end; ++j) line.args.push_back(j);
    directives.push_back(std::move(line));
  }
  return directives;
}

// `#ifdef NAME`, `#if defined(NAME)` or `#if defined NAME`, nothing else on the line.
bool TestsDefined(std::string_view content, std::span<const RawToken> tokens, const DirectiveLine& line,
                  std::string_view name) {
  std::vector<std::string_view> words;
  for (size_t index : line.args) words.push_back(Text(content, tokens[index]));
  if (line.name == "ifdef") return words.size() == 1 && words[0] == name;
  if (line.name != "if") return false;
  if (words.size() == 2) return words[0] == "defined" && words[1] == name;
  return words.size() == 4 && words[0] == "defined" && words[1] == "(" && words[2] == name && words[3] == ")";
}

}  // namespace

std::vector<ByteRange> RegisterStorageWords(std::string_view content, std::span<const RawToken> tokens) {
  std::vector<ByteRange> words;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (!IsWord(content, tokens[i], "register")) continue;
    // An explicit register variable names its register with asm before the declaration's end.
    bool explicit_register = false;
    int depth = 0;
    for (size_t j = i + 1; j < tokens.size(); ++j) {
      const auto kind = tokens[j].kind;
      if (depth == 0 && (kind == clang::tok::semi || kind == clang::tok::l_brace)) break;
      if (kind == clang::tok::l_paren || kind == clang::tok::l_brace || kind == clang::tok::l_square) ++depth;
      if (kind == clang::tok::r_paren || kind == clang::tok::r_brace || kind == clang::tok::r_square) {
        if (depth-- == 0) break;  // a parameter list or a block ends
      }
      if (IsWord(content, tokens[j], "asm") || IsWord(content, tokens[j], "__asm__") ||
          IsWord(content, tokens[j], "__asm")) {
        explicit_register = true;
        break;
      }
    }
    if (explicit_register) continue;
    uint32_t end = tokens[i].end();
    while (end < content.size() && (content[end] == ' ' || content[end] == '\t')) ++end;
    words.push_back({tokens[i].begin, end});
  }
  return words;
}

std::vector<ByteRange> ExternCBlocks(std::string_view content, std::span<const RawToken> tokens) {
  std::vector<ByteRange> blocks;
  for (size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (!IsWord(content, tokens[i], "extern") || tokens[i + 1].kind != clang::tok::string_literal ||
        Text(content, tokens[i + 1]) != "\"C\"" || tokens[i + 2].kind != clang::tok::l_brace) {
      continue;
    }
    int depth = 0;
    size_t close = i + 2;
    for (; close < tokens.size(); ++close) {
      if (tokens[close].kind == clang::tok::l_brace) ++depth;
      if (tokens[close].kind == clang::tok::r_brace && --depth == 0) break;
    }
    const uint32_t end = close < tokens.size() ? tokens[close].end() : static_cast<uint32_t>(content.size());
    blocks.push_back({tokens[i].begin, end});
  }
  return blocks;
}

uint32_t OutsideExternC(std::string_view content, std::span<const ByteRange> blocks, uint32_t offset) {
  for (const ByteRange& block : blocks) {
    if (offset <= block.begin || offset >= block.end) continue;
    uint32_t line = LineStart(content, block.begin);
    // `#ifdef __cplusplus` on the line before (blank lines between allowed) opens the block in C++ only.
    uint32_t previous_end = line;
    while (previous_end > 0 && (content[previous_end - 1] == '\n' || content[previous_end - 1] == ' ' ||
                                content[previous_end - 1] == '\t' || content[previous_end - 1] == '\r')) {
      --previous_end;
    }
    const uint32_t previous = LineStart(content, previous_end);
    std::string_view text = content.substr(previous, previous_end - previous);
    std::string compact;
    for (char c : text) {
      if (c != ' ' && c != '\t' && c != '(' && c != ')') compact += c;
    }
    if (compact == "#ifdef__cplusplus" || compact == "#ifdefined__cplusplus") line = previous;
    return line;
  }
  return offset;
}

std::vector<ByteRange> CudaCompilerRegions(std::string_view content, std::span<const RawToken> tokens) {
  const std::vector<DirectiveLine> directives = Directives(content, tokens);
  std::vector<ByteRange> regions;
  for (size_t d = 0; d < directives.size(); ++d) {
    if (!TestsDefined(content, tokens, directives[d], "__CUDACC__")) continue;
    int depth = 0;
    for (size_t e = d + 1; e < directives.size(); ++e) {
      const std::string_view name = directives[e].name;
      if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
      if (depth == 0 &&
          (name == "else" || name == "elif" || name == "endif" || name == "elifdef" || name == "elifndef")) {
        regions.push_back(
            {std::min<uint32_t>(directives[d].end + 1, static_cast<uint32_t>(content.size())), directives[e].begin});
        break;
      }
      if (name == "endif") --depth;
    }
  }
  return regions;
}

std::optional<ByteRange> RegionHoldingAll(std::span<const ByteRange> regions, std::span<const uint32_t> uses) {
  if (uses.empty()) return std::nullopt;
  for (const ByteRange& region : regions) {
    if (std::all_of(uses.begin(), uses.end(), [&](uint32_t use) { return use >= region.begin && use < region.end; })) {
      return region;
    }
  }
  return std::nullopt;
}

std::vector<uint32_t> FileScopeIncludeEnds(std::string_view content, std::span<const RawToken> tokens, bool guarded) {
  const std::vector<ByteRange> blocks = ExternCBlocks(content, tokens);
  std::vector<uint32_t> ends;
  int depth = guarded ? -1 : 0;
  for (const DirectiveLine& line : Directives(content, tokens)) {
    if (line.name == "if" || line.name == "ifdef" || line.name == "ifndef") ++depth;
    if (line.name == "endif") --depth;
    if (depth != 0 || (line.name != "include" && line.name != "include_next")) continue;
    if (OutsideExternC(content, blocks, line.begin) != line.begin) continue;
    ends.push_back(std::min<uint32_t>(line.end + 1, static_cast<uint32_t>(content.size())));
  }
  return ends;
}

namespace {

// Whether the tokens before `index` read as a declaration's type: `T name`, `T* name`, `T& name` (a keyword such
// as return does not name a type).
bool TypeBefore(std::string_view content, std::span<const RawToken> tokens, size_t index) {
  static constexpr std::string_view kNotTypes[] = {"return", "case",      "else",     "do",     "goto",
                                                   "throw",  "co_return", "co_yield", "sizeof", "decltype",
                                                   "typeid", "new",       "delete"};
  size_t type_end = index - 1;
  while (type_end > 0 && (tokens[type_end].kind == clang::tok::star || tokens[type_end].kind == clang::tok::amp)) {
    --type_end;
  }
  const RawToken& type = tokens[type_end];
  if (IsIdentifier(type) &&
      std::find(std::begin(kNotTypes), std::end(kNotTypes), Text(content, type)) == std::end(kNotTypes)) {
    // `a * name (` in an expression would read the same; a declaration's type follows a statement boundary,
    // a qualifier or another type word, an expression's operand does not follow `=`, `(`, `,` etc. here.
    if (type_end == index - 1 || type_end == 0) return true;
    const auto kind = tokens[type_end - 1].kind;
    const bool boundary = kind == clang::tok::semi || kind == clang::tok::r_brace || kind == clang::tok::l_brace ||
                          kind == clang::tok::raw_identifier || kind == clang::tok::greater ||
                          kind == clang::tok::r_paren || tokens[type_end].line_start;
    return boundary;
  }
  return false;
}

}  // namespace

CallUse ClassifyCallUse(std::string_view content, std::span<const RawToken> tokens, size_t index) {
  if (index + 1 >= tokens.size() || tokens[index + 1].kind != clang::tok::l_paren) return CallUse::kNone;
  if (index == 0) return CallUse::kCall;
  const RawToken& before = tokens[index - 1];
  if (before.kind == clang::tok::period || before.kind == clang::tok::arrow || before.kind == clang::tok::coloncolon) {
    return CallUse::kNone;
  }
  return TypeBefore(content, tokens, index) ? CallUse::kOwnDeclaration : CallUse::kCall;
}

bool DeclaresName(std::string_view content, std::span<const RawToken> tokens, size_t index) {
  if (index == 0 || index + 1 >= tokens.size() || !IsIdentifier(tokens[index])) return false;
  switch (tokens[index + 1].kind) {
    case clang::tok::equal:
    case clang::tok::semi:
    case clang::tok::comma:
    case clang::tok::l_square:
    case clang::tok::l_paren:
    case clang::tok::r_paren:
    case clang::tok::l_brace:
    case clang::tok::colon: break;
    default: return false;
  }
  const auto before = tokens[index - 1].kind;
  if (before == clang::tok::period || before == clang::tok::arrow || before == clang::tok::coloncolon) return false;
  return TypeBefore(content, tokens, index);
}

}  // namespace hipforge::translate
