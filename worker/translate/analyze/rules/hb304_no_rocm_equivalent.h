#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB304: libraries and APIs with no ROCm equivalent (NPP, nvJPEG, NVSHMEM, cuFile/GDS, OptiX, NVML, nvGRAPH,
// nvCOMP, cuDSS, ...). Token rule: the #include line, or the first call per function when the header comes in
// through another file.
class NoRocmEquivalentRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void checkTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
