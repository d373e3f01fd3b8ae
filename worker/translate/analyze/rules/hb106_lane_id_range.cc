#include "worker/translate/analyze/rules/hb106_lane_id_range.h"

#include <set>

#include "worker/translate/analyze/ptx_rewrite.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& LaneIdRangeRule::info() const {
  static const RuleInfo kInfo{kRuleLaneIdRange, Severity::kWarning, RuleClass::kWavefront,
                              "Lane ids from PTX %laneid checked with a 32-lane range (% 32, & 31, == 31, < 32)"};
  return kInfo;
}

namespace {

bool IsNumber(const Token& token, unsigned long long expected) {
  unsigned long long value = 0;
  return token.kind == TokenKind::kNumber && ParseIntegerLiteral(token.text, &value) && value == expected;
}

// The function whose body is the scope `scope` (offset + 1 of its '{'): the name before its parameter list.
std::string_view FunctionOfScope(const TextFile& file, uint32_t scope) {
  const auto& tokens = file.tokens();
  size_t at = scope == 0 ? tokens.size() : file.TokenIndexAt(scope - 1);
  if (at >= tokens.size() || at < 3 || tokens[at - 1].text != ")") return {};
  int depth = 0;
  for (size_t i = at - 1; i > 0; --i) {
    if (tokens[i].text == ")") ++depth;
    if (tokens[i].text == "(" && --depth == 0) {
      return tokens[i - 1].kind == TokenKind::kIdentifier ? tokens[i - 1].text : std::string_view{};
    }
  }
  return {};
}

// What holds a lane id read from %laneid: the asm's output variable, a function that returns it, a macro that
// writes it (`LANE_ID(r)`), and variables initialized from those functions (or from __lane_id()). Variables are
// per function (Token::scope): `r` elsewhere is another variable.
struct LaneSources {
  std::set<std::pair<uint32_t, std::string_view>> variables;
  std::set<std::string_view> functions{"__lane_id"};
  std::set<std::string_view> macros;
};

// Fills `lanes` from the file's %laneid asm statements; false when there are none.
bool FindLaneSources(const TextFile& file, LaneSources& lanes) {
  const auto& tokens = file.tokens();
  bool found = false;
  for (const AsmStatement& statement : FindAsmStatements(tokens)) {
    if (statement.text.find("%laneid") == std::string::npos || !LooksLikePtx(statement.text)) continue;
    found = true;
    const auto parsed = ParseAsmStatement(file, statement.keyword);
    if (!parsed || parsed->operands.empty() || parsed->operands[0].constraint.find('=') == std::string::npos) continue;
    std::string_view output = parsed->operands[0].expression;
    while (!output.empty() && (output.front() == '(' || output.front() == ' ')) output.remove_prefix(1);
    while (!output.empty() && (output.back() == ')' || output.back() == ' ')) output.remove_suffix(1);
    const Token& keyword = tokens[statement.keyword];
    if (keyword.in_directive && keyword.directive == "define") {
      for (size_t i = statement.keyword; i > 0 && tokens[i].in_directive; --i) {
        if (tokens[i - 1].text == "define") lanes.macros.insert(tokens[i].text);
      }
      continue;
    }
    // The output names a local (`r`, not `out[i]`); a function returning it returns the lane id.
    for (size_t i = statement.keyword; i < tokens.size() && tokens[i].scope == keyword.scope; ++i) {
      if (tokens[i].text != output || tokens[i].kind != TokenKind::kIdentifier) continue;
      lanes.variables.insert({keyword.scope, tokens[i].text});
      if (keyword.scope != 0 && i > 0 && i + 1 < tokens.size() && tokens[i - 1].text == "return" &&
          tokens[i + 1].text == ";") {
        lanes.functions.insert(FunctionOfScope(file, keyword.scope));
      }
    }
  }
  if (!found) return false;
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier) continue;
    if (tokens[i + 1].text == "=" && lanes.functions.count(tokens[i + 2].text) && tokens[i + 3].text == "(") {
      lanes.variables.insert({tokens[i].scope, tokens[i].text});
    }
    if (lanes.macros.count(tokens[i].text) && tokens[i + 1].text == "(" && !tokens[i].in_directive) {
      lanes.variables.insert({tokens[i + 2].scope, tokens[i + 2].text});
    }
  }
  lanes.functions.erase(std::string_view{});
  return true;
}

// tokens[op] compares a lane id (a lane variable, a lane function's call, threadIdx.x) on its left.
bool LaneOnTheLeft(const std::vector<Token>& tokens, size_t op, const LaneSources& lanes) {
  if (op < 1) return false;
  if (lanes.variables.count({tokens[op - 1].scope, tokens[op - 1].text})) return true;
  if (op >= 3 && tokens[op - 1].text == ")" && tokens[op - 2].text == "(" &&
      lanes.functions.count(tokens[op - 3].text)) {
    return true;
  }
  return op >= 3 && tokens[op - 1].text == "x" && tokens[op - 2].text == "." && tokens[op - 3].text == "threadIdx";
}

}  // namespace

void LaneIdRangeRule::CheckTokens(const TextFile& file) {
  LaneSources lanes;
  if (!FindLaneSources(file, lanes)) return;
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].in_directive && tokens[i].directive != "define") continue;
    const std::string_view op = tokens[i].text;
    const Token& constant = tokens[i + 1];
    // Lane arithmetic anywhere in the file (also the host's check of the kernel's lane ids); comparisons only
    // of a lane id, as `i < 32` is every loop's.
    const bool arithmetic =
        ((op == "%" || op == "%=") && IsNumber(constant, 32)) || ((op == "&" || op == "&=") && IsNumber(constant, 31));
    const bool comparison = (op == "==" || op == "!=" || op == "<" || op == "<=" || op == ">" || op == ">=") &&
                            (IsNumber(constant, 31) || IsNumber(constant, 32)) && LaneOnTheLeft(tokens, i, lanes);
    if (!arithmetic && !comparison) continue;
    if (!lines_done.insert(file.LineColumn(tokens[i].offset).first).second) continue;
    Report(file, constant.offset,
           "this file reads the lane id from PTX %laneid, which becomes __lane_id() (HB201): 0..63 on a 64-wide "
           "AMD wavefront (MI250/MI300), 0..31 on a CUDA warp; `" +
               std::string(op) + " " + std::string(constant.text) +
               "` assumes 32 lanes, so lane ids computed or checked with it (here or "
               "on the host) disagree with __lane_id()",
           "Use warpSize (device) or hipDeviceProp_t::warpSize (host) for the lane count, or keep 32-lane groups "
           "explicitly (`__lane_id() % 32`) where the algorithm needs them; check the code that compares lane ids.");
  }
}

}  // namespace hipforge::translate::analyze
