#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB201: inline PTX asm. Token rule: an asm statement whose text looks like PTX (typed opcodes such as mov.u32, PTX
// special registers, trap/exit), so host-side x86/ARM asm stays silent.
class InlinePtxRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
