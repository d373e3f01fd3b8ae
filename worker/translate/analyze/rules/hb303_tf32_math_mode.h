#pragma once
#include "worker/translate/analyze/identifier_use_rule.h"

namespace hipforge::translate::analyze {

// HB303: TF32 / tensor-op math modes. Token rule: the CUDA identifiers decide it, in parsed and unparsed files alike.
class Tf32MathModeRule final : public IdentifierUseRule {
 public:
  using IdentifierUseRule::IdentifierUseRule;
  const RuleInfo& info() const override;

 protected:
  const Spec& spec() const override;
};

}  // namespace hipforge::translate::analyze
