#include "worker/translate/analyze/ptx_rewrite.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "worker/translate/analyze/rule.h"
#include "worker/translate/tables/ptx_table.h"

namespace hipforge::translate::analyze {
namespace {

bool IsPunctuation(char c) { return c == ',' || c == ';' || c == '{' || c == '}' || c == '[' || c == ']'; }

// Splits normalized PTX into words and punctuation marks.
std::vector<std::string> SplitPtx(std::string_view text) {
  std::vector<std::string> parts;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) parts.push_back(std::move(word));
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush();
    } else if (IsPunctuation(c)) {
      flush();
      parts.emplace_back(1, c);
    } else {
      word += c;
    }
  }
  flush();
  return parts;
}

std::optional<long long> IntegerValue(std::string_view text) {
  bool negative = false;
  if (!text.empty() && text.front() == '-') {
    negative = true;
    text.remove_prefix(1);
  }
  unsigned long long value = 0;
  if (!ParseIntegerLiteral(text, &value)) return std::nullopt;
  return negative ? -static_cast<long long>(value) : static_cast<long long>(value);
}

std::optional<size_t> OperandReference(std::string_view word) {
  if (word.size() < 2 || word[0] != '%') return std::nullopt;
  size_t index = 0;
  for (char c : word.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<size_t>(c - '0');
  }
  return index;
}

struct Bindings {
  std::map<char, std::string> expressions;  // $x -> operand expression
  std::map<char, long long> immediates;     // #x -> value
  std::map<char, std::string> names;        // &x -> PTX register name
};

bool MatchWord(std::string_view pattern, std::string_view word, const ParsedAsm& statement, Bindings& bindings) {
  if (pattern.size() == 2 && (pattern[0] == '$' || pattern[0] == '#' || pattern[0] == '&')) {
    const char key = pattern[1];
    if (pattern[0] == '&') {
      if (word.empty() || word[0] == '%' && OperandReference(word)) return false;
      auto [it, fresh] = bindings.names.emplace(key, std::string(word));
      return fresh || it->second == word;
    }
    std::optional<long long> immediate;
    std::string expression;
    if (const auto index = OperandReference(word)) {
      if (*index >= statement.operands.size()) return false;
      const AsmOperand& operand = statement.operands[*index];
      expression = operand.expression;
      if (pattern[0] == '#') immediate = IntegerValue(operand.expression);
    } else if (pattern[0] == '#') {
      immediate = IntegerValue(word);
    } else {
      return false;
    }
    if (pattern[0] == '#') {
      if (!immediate) return false;
      auto [it, fresh] = bindings.immediates.emplace(key, *immediate);
      return fresh || it->second == *immediate;
    }
    auto [it, fresh] = bindings.expressions.emplace(key, expression);
    return fresh || it->second == expression;
  }
  if (pattern == word) return true;
  // Immediates written differently (0x1f vs 31, 0xffffffff vs -1 for a mask).
  const auto pattern_value = IntegerValue(pattern);
  const auto word_value = IntegerValue(word);
  return pattern_value && word_value && (*pattern_value == *word_value);
}

std::string Hex(unsigned long long value, bool wide) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 15]);
    value >>= 4;
  } while (value);
  return "0x" + digits + (wide ? "ull" : "u");
}

unsigned long long LowMask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

std::string Unsigned(const std::string& expression, bool wide) {
  return std::string(wide ? "static_cast<unsigned long long>(" : "static_cast<unsigned int>(") + expression + ")";
}

// bfe.uN d, a, pos, len: bits [pos, pos+len) of a, clamped at the register width (PTX takes pos and len mod 256).
std::string BitFieldExtract(const Bindings& b, bool wide) {
  const unsigned width = wide ? 64 : 32;
  const unsigned pos = static_cast<unsigned>(b.immediates.at('b')) & 0xff;
  const unsigned len = static_cast<unsigned>(b.immediates.at('c')) & 0xff;
  const std::string& d = b.expressions.at('d');
  if (len == 0 || pos >= width) return "(" + d + ") = 0";
  const unsigned bits = std::min(len, width - pos);
  const std::string source = Unsigned("(" + b.expressions.at('a') + ")", wide);
  if (bits == width) return "(" + d + ") = " + source;
  return "(" + d + ") = (" + source + " >> " + std::to_string(pos) + ") & " + Hex(LowMask(bits), wide);
}

// bfi.bN d, f, b, pos, len: b with bits [pos, pos+len) replaced by the low bits of f.
std::string BitFieldInsert(const Bindings& b, bool wide) {
  const unsigned width = wide ? 64 : 32;
  const unsigned pos = static_cast<unsigned>(b.immediates.at('c')) & 0xff;
  const unsigned len = static_cast<unsigned>(b.immediates.at('d')) & 0xff;
  const std::string& d = b.expressions.at('d');
  const std::string base = Unsigned("(" + b.expressions.at('b') + ")", wide);
  if (len == 0 || pos >= width) return "(" + d + ") = " + base;
  const unsigned bits = std::min(len, width - pos);
  const unsigned long long mask = (LowMask(bits) << pos) & LowMask(width);
  const std::string field = Unsigned("(" + b.expressions.at('a') + ")", wide);
  return "(" + d + ") = (" + base + " & " + Hex(~mask & LowMask(width), wide) + ") | ((" + field + " << " +
         std::to_string(pos) + ") & " + Hex(mask, wide) + ")";
}

// lop3.b32 d, a, b, c, lut: the OR of the table's minterms (PTX: a = 0xF0, b = 0xCC, c = 0xAA).
std::string Lop3(const Bindings& b) {
  const unsigned lut = static_cast<unsigned>(b.immediates.at('d')) & 0xff;
  const std::string& d = b.expressions.at('d');
  if (lut == 0) return "(" + d + ") = 0u";
  if (lut == 0xff) return "(" + d + ") = 0xffffffffu";
  const std::string inputs[3] = {Unsigned("(" + b.expressions.at('a') + ")", false),
                                 Unsigned("(" + b.expressions.at('b') + ")", false),
                                 Unsigned("(" + b.expressions.at('c') + ")", false)};
  std::string terms;
  for (unsigned i = 0; i < 8; ++i) {
    if (!(lut & (1u << i))) continue;
    const bool bits[3] = {(i & 4) != 0, (i & 2) != 0, (i & 1) != 0};
    std::string term;
    for (int k = 0; k < 3; ++k) term += std::string(term.empty() ? "" : " & ") + (bits[k] ? "" : "~") + inputs[k];
    terms += std::string(terms.empty() ? "" : " | ") + "(" + term + ")";
  }
  return "(" + d + ") = " + terms;
}

std::string FillTemplate(std::string_view hip, const Bindings& b) {
  std::string out;
  for (size_t i = 0; i < hip.size(); ++i) {
    if (hip[i] == '$' && i + 1 < hip.size() && b.expressions.count(hip[i + 1])) {
      out += "(" + b.expressions.at(hip[i + 1]) + ")";
      ++i;
    } else {
      out += hip[i];
    }
  }
  return out;
}

}  // namespace

std::optional<ParsedAsm> ParseAsmStatement(const TextFile& file, size_t keyword) {
  const auto& tokens = file.tokens();
  const std::string_view word = tokens[keyword].text;
  if (tokens[keyword].kind != TokenKind::kIdentifier || (word != "asm" && word != "__asm__" && word != "__asm")) {
    return std::nullopt;
  }
  ParsedAsm parsed;
  parsed.begin = tokens[keyword].offset;
  bool plain = true;
  size_t open = keyword + 1;
  for (; open < tokens.size(); ++open) {
    const std::string_view qualifier = tokens[open].text;
    if (qualifier == "goto") plain = false;
    if (qualifier != "volatile" && qualifier != "__volatile__" && qualifier != "goto" && qualifier != "inline") break;
  }
  if (open >= tokens.size() || tokens[open].text != "(") return std::nullopt;
  const size_t close = MatchingParen(tokens, open);
  if (close >= tokens.size()) return std::nullopt;
  parsed.end = tokens[close].offset + 1;
  // Sections: template, outputs, inputs, clobbers (`::` is two separators).
  int section = 0;
  size_t outputs = 0;
  std::vector<AsmOperand> inputs;
  for (size_t k = open + 1; k < close; ++k) {
    const Token& token = tokens[k];
    if (token.text == ":" || token.text == "::") {
      section += token.text == "::" ? 2 : 1;
      continue;
    }
    if (section == 0) {
      if (token.kind == TokenKind::kString) {
        parsed.text += std::string(StringLiteralBody(token.text));
      } else {
        plain = false;  // a macro or expression in the template
      }
      continue;
    }
    if (section >= 3) continue;  // clobbers
    if (token.text == ",") continue;
    if (token.kind != TokenKind::kString || k + 1 >= close || tokens[k + 1].text != "(") {
      plain = false;  // named operands ([x] "r"(v)) or something unexpected
      continue;
    }
    const size_t operand_close = MatchingParen(tokens, k + 1);
    if (operand_close >= close) return std::nullopt;
    AsmOperand operand;
    operand.constraint = std::string(StringLiteralBody(token.text));
    const uint32_t first = tokens[k + 2 <= operand_close ? k + 2 : operand_close].offset;
    operand.expression = file.content().substr(first, tokens[operand_close].offset - first);
    while (!operand.expression.empty() && std::isspace(static_cast<unsigned char>(operand.expression.back()))) {
      operand.expression.pop_back();
    }
    if (section == 1) {
      parsed.operands.push_back(std::move(operand));
      ++outputs;
    } else {
      inputs.push_back(std::move(operand));
    }
    k = operand_close;
  }
  for (auto& input : inputs) parsed.operands.push_back(std::move(input));
  parsed.rewritable = plain;
  return parsed;
}

std::string NormalizePtx(std::string_view text) {
  std::string spaced;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == 'n' || text[i + 1] == 't' || text[i + 1] == 'r')) {
      spaced += ' ';
      ++i;
    } else if (c == '%' && i + 1 < text.size() && text[i + 1] == '%') {
      spaced += '%';
      ++i;
    } else {
      spaced += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    }
  }
  std::string out;
  for (size_t i = 0; i < spaced.size(); ++i) {
    const char c = spaced[i];
    if (c == ' ') {
      const bool after_mark = out.empty() || out.back() == ' ' || IsPunctuation(out.back());
      const bool before_mark = i + 1 >= spaced.size() || spaced[i + 1] == ' ' || IsPunctuation(spaced[i + 1]);
      if (after_mark || before_mark) continue;
    }
    out += c;
  }
  while (!out.empty() && (out.back() == ';' || out.back() == ' ')) out.pop_back();
  return out;
}

std::optional<PtxReplacement> MatchPtxIdiom(const ParsedAsm& statement) {
  if (!statement.rewritable) return std::nullopt;
  const std::vector<std::string> words = SplitPtx(NormalizePtx(statement.text));
  for (const PtxIdiom& idiom : PtxIdioms()) {
    const std::vector<std::string> pattern = SplitPtx(idiom.ptx);
    if (pattern.size() != words.size()) continue;
    Bindings bindings;
    bool matched = true;
    for (size_t i = 0; i < pattern.size() && matched; ++i)
      matched = MatchWord(pattern[i], words[i], statement, bindings);
    if (!matched) continue;
    // Every operand the statement declares must be used by the pattern, or the rewrite would drop it.
    size_t used = bindings.expressions.size();
    for (const auto& [key, value] : bindings.immediates) (void)key, (void)value, ++used;
    if (statement.operands.size() > used) continue;
    const bool wide =
        idiom.ptx.find(".b64") != std::string_view::npos || idiom.ptx.find(".u64") != std::string_view::npos;
    PtxReplacement replacement;
    switch (idiom.rewrite) {
      case PtxRewrite::kTemplate: replacement.statement = FillTemplate(idiom.hip, bindings); break;
      case PtxRewrite::kBitFieldExtract: replacement.statement = BitFieldExtract(bindings, wide); break;
      case PtxRewrite::kBitFieldInsert: replacement.statement = BitFieldInsert(bindings, wide); break;
      case PtxRewrite::kLop3: replacement.statement = Lop3(bindings); break;
    }
    replacement.instruction = std::string(idiom.ptx);
    replacement.caveat = std::string(idiom.caveat);
    return replacement;
  }
  return std::nullopt;
}

std::vector<std::string> PtxInstructions(std::string_view text) {
  std::vector<std::string> instructions;
  const std::string normalized = NormalizePtx(text);
  bool statement_start = true;
  for (const std::string& part : SplitPtx(normalized)) {
    if (part == ";" || part == "{" || part == "}") {
      statement_start = true;
      continue;
    }
    if (!statement_start || IsPunctuation(part[0])) continue;
    statement_start = false;
    if (part[0] == '.' || part[0] == '@' || part.back() == ':') {  // declarations, predicates, labels
      statement_start = part[0] == '@' || part.back() == ':';
      continue;
    }
    if (std::find(instructions.begin(), instructions.end(), part) == instructions.end()) instructions.push_back(part);
  }
  return instructions;
}

}  // namespace hipforge::translate::analyze
