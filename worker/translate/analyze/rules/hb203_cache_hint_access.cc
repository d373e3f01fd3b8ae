#include "worker/translate/analyze/rules/hb203_cache_hint_access.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& CacheHintAccessRule::info() const {
  static const RuleInfo kInfo{kRuleCacheHintAccess, Severity::kNote, RuleClass::kArchitecture,
                              "Cache-hint loads/stores (__ldg, __ldcg, __ldca, __ldcs, __stcg, __stcs, ...)"};
  return kInfo;
}

void CacheHintAccessRule::CheckTokens(const TextFile& file) {
  static constexpr std::string_view kLoads[] = {"__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"};
  static constexpr std::string_view kStores[] = {"__stcg", "__stcs", "__stwb", "__stwt"};
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || !IsCallAt(tokens, i)) continue;
    if (token.in_directive && token.directive != "define") continue;
    const std::string_view name = token.text;
    const bool is_ldg = name == "__ldg";
    bool is_load = false, is_store = false;
    for (auto load : kLoads) is_load |= name == load;
    for (auto store : kStores) is_store |= name == store;
    if (!is_ldg && !is_load && !is_store) continue;
    if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    if (is_ldg) {
      Report(file, token.offset,
             "__ldg: HIP compiles it to an ordinary global load (no read-only/texture cache path on AMD)",
             "Nothing to change for correctness; for speed mark the pointer `const __restrict__`.");
    } else if (is_load) {
      Report(file, token.offset,
             std::string(name) + ": cache-hint load not provided by HIP for most types (build error)",
             "Use __ldg (an ordinary load on AMD); or __builtin_nontemporal_load for streaming data.",
             {EditSpec{token.offset, static_cast<uint32_t>(name.size()), "__ldg"}});
      sink().findings().back().severity = Severity::kError;
    } else {
      Report(file, token.offset, std::string(name) + ": cache-hint store not provided by HIP (build error)",
             "Replace with a plain store `*ptr = value;` or __builtin_nontemporal_store(value, ptr).");
      sink().findings().back().severity = Severity::kError;
    }
  }
}

}  // namespace hipforge::translate::analyze
