#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB503: CUDA environment variables (CUDA_VISIBLE_DEVICES, CUDA_LAUNCH_BLOCKING, CUDA_DEVICE_ORDER, ...) in scripts and
// build files (lines) and in C/C++ string literals (getenv/setenv).
class CudaEnvVarRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckLines(const TextFile& file) override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
