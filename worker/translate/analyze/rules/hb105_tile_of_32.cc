#include "worker/translate/analyze/rules/hb105_tile_of_32.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& TileOf32Rule::info() const {
  static const RuleInfo kInfo{kRuleTileOf32, Severity::kWarning, RuleClass::kWavefront,
                              "Cooperative-group tiles of 32 (tiled_partition<32>, thread_block_tile<32>)"};
  return kInfo;
}

void TileOf32Rule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  const auto macros = IntegerMacros(tokens);
  auto is_32 = [&](const Token& token) {
    unsigned long long value = 0;
    if (token.kind == TokenKind::kNumber) return ParseIntegerLiteral(token.text, &value) && value == 32;
    if (token.kind != TokenKind::kIdentifier) return false;
    const auto it = macros.find(token.text);
    return it != macros.end() && it->second == 32;
  };
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    const std::string_view name = tokens[i].text;
    if (name != "tiled_partition" && name != "thread_block_tile") continue;
    if (tokens[i].in_directive && tokens[i].directive != "define") continue;
    bool hit = false;
    if (tokens[i + 1].text == "<" && is_32(tokens[i + 2]) && (tokens[i + 3].text == ">" || tokens[i + 3].text == ",")) {
      hit = true;
    } else if (name == "tiled_partition" && tokens[i + 1].text == "(") {
      const size_t close = MatchingParen(tokens, i + 1);
      if (close < tokens.size() && close >= 2 && tokens[close - 2].text == "," && is_32(tokens[close - 1])) hit = true;
    }
    if (!hit || !lines_done.insert(file.LineColumn(tokens[i].offset).first).second) continue;
    Report(file, tokens[i].offset,
           std::string(name) +
               " of 32 threads: a CUDA warp-sized tile is half of an AMD wavefront (64 lanes on "
               "MI250/MI300); code that treats the tile as the hardware warp (masks, lane ids, "
               "implicit lock-step) breaks",
           "Keep the tile only if the algorithm needs exactly 32 threads; otherwise size it with the wavefront "
           "(tiled_partition(block, warpSize) at run time, or 64 for CDNA) and re-check lane masks.");
  }
}

}  // namespace hipforge::translate::analyze
