#pragma once
#include "worker/translate/analyze/identifier_use_rule.h"

namespace hipforge::translate::analyze {

// HB302: cuBLASLt descriptors, layouts and epilogues (hipBLASLt). Token rule: the CUDA identifiers decide it, in parsed
// and unparsed files alike.
class CublasLtRule final : public IdentifierUseRule {
 public:
  using IdentifierUseRule::IdentifierUseRule;
  const RuleInfo& info() const override;

 protected:
  const Spec& spec() const override;
  bool Accept(const TextFile& file, size_t index) const override;
};

}  // namespace hipforge::translate::analyze
