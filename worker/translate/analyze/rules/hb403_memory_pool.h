#pragma once
#include "worker/translate/analyze/identifier_use_rule.h"

namespace hipforge::translate::analyze {

// HB403: Stream-ordered allocation and memory pools. Token rule: the CUDA identifiers decide it, in parsed and unparsed
// files alike.
class MemoryPoolRule final : public IdentifierUseRule {
 public:
  using IdentifierUseRule::IdentifierUseRule;
  const RuleInfo& info() const override;

 protected:
  const Spec& spec() const override;
};

}  // namespace hipforge::translate::analyze
