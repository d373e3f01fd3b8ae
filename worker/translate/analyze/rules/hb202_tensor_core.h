#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB202: tensor-core and async-copy code (nvcuda::wmma, mma.sync/ldmatrix/cp.async in asm, cuda::pipeline,
// memcpy_async) -> rocWMMA/MFMA. Token rule; one finding per function for API use, one per asm statement.
class TensorCoreRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
