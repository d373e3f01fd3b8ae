#pragma once
#include "worker/translate/analyze/identifier_use_rule.h"

namespace hipforge::translate::analyze {

// HB305: cuRAND generators whose sequences differ under hipRAND. Token rule: the CUDA identifiers decide it, in parsed
// and unparsed files alike.
class CurandSequenceRule final : public IdentifierUseRule {
 public:
  using IdentifierUseRule::IdentifierUseRule;
  const RuleInfo& info() const override;

 protected:
  const Spec& spec() const override;
};

}  // namespace hipforge::translate::analyze
