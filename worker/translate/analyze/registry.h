#pragma once
// The explicit list of every rule (no static self-registration). Internal to the analyzer.
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate {
class MappingIndex;
}

namespace hipforge::translate::analyze {

// Fresh instances of every rule not in `disabled`, reporting into `sink`. Rules keep per-TU state, so each
// analysis task makes its own set.
// `mappings` (may be null: the AST pass, catalog listings) lets HB304 find APIs the tables mark unsupported;
// `target_architectures` (gfx90a, gfx942, ...) are the GPUs the program is built for (HB206).
std::vector<std::unique_ptr<Rule>> MakeRules(FindingSink& sink, const std::set<std::string>& disabled,
                                             const MappingIndex* mappings = nullptr,
                                             std::span<const std::string> target_architectures = {});

// Ids and metadata of every rule, in catalog order.
std::vector<RuleInfo> AllRuleInfos();

}  // namespace hipforge::translate::analyze
