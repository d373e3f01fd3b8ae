#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB203: cache-hint loads/stores (__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv, __stcg, __stcs, __stwb, __stwt). Token
// rule.
class CacheHintAccessRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
