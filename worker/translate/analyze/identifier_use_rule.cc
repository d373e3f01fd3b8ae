#include "worker/translate/analyze/identifier_use_rule.h"

#include <algorithm>
#include <map>
#include <set>

namespace hipforge::translate::analyze {

std::string ReplaceName(std::string text, std::string_view name) {
  for (size_t at = text.find("{name}"); at != std::string::npos; at = text.find("{name}", at + name.size())) {
    text.replace(at, 6, name);
  }
  return text;
}

namespace {

// A function's signature is lexically at file scope; it belongs to the body that follows it.
uint32_t FunctionScope(const std::vector<Token>& tokens, size_t index) {
  if (tokens[index].scope != 0) return tokens[index].scope;
  for (size_t j = index + 1; j < tokens.size(); ++j) {
    if (tokens[j].scope != 0) return tokens[j].scope;
    if (tokens[j].text == ";") break;
  }
  return 0;
}

}  // namespace

void IdentifierUseRule::CheckTokens(const TextFile& file) {
  const Spec& rule_spec = spec();
  const auto& tokens = file.tokens();
  std::vector<size_t> candidates;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier) continue;
    if (token.in_directive && token.directive != "define") continue;
    if (!MatchesAny(token.text, rule_spec.patterns)) continue;
    if (i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->")) continue;  // someone else's member
    if (rule_spec.granularity == Granularity::kEveryCall && !IsCallAt(tokens, i)) continue;
    if (!Accept(file, i)) continue;
    candidates.push_back(i);
  }
  if (rule_spec.granularity == Granularity::kFirstPerScope) {
    // One finding per function: at its first call (where the subsystem is actually used; a handle type in
    // the signature or a declaration says less), else at the first mention.
    std::map<uint32_t, size_t> chosen;
    for (size_t i : candidates) {
      const uint32_t scope = FunctionScope(tokens, i);
      auto [it, inserted] = chosen.emplace(scope, i);
      if (!inserted && !IsCallAt(tokens, it->second) && IsCallAt(tokens, i)) it->second = i;
    }
    candidates.clear();
    for (const auto& [scope, index] : chosen) candidates.push_back(index);
    std::sort(candidates.begin(), candidates.end());
  }
  std::set<uint32_t> lines_done;
  for (size_t i : candidates) {
    const Token& token = tokens[i];
    if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    Report(file, token.offset, ReplaceName(rule_spec.message, token.text), ReplaceName(rule_spec.fix, token.text),
           Edits(file, i));
  }
}

}  // namespace hipforge::translate::analyze
