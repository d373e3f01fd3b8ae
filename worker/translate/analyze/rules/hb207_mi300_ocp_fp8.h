#pragma once
#include <span>
#include <string>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB207: CUDA's OCP fp8 types and conversions (cuda_fp8.h: __nv_fp8_e4m3, __nv_fp8x2_e5m2, __nv_cvt_float_to_fp8,
// ...) in a program built for gfx94x (MI300). The translator maps them to HIP 6.4's OCP types (__hip_fp8_e4m3,
// ...), but on gfx940/941/942 amd_hip_fp8.h enables only the FNUZ formats in device code: the OCP types convert
// on the host only, so device code that converts them does not build (HeCBench addBiasQKV-cuda). FNUZ has other
// ranges (e4m3: largest finite 240, not 448; no negative zero; one NaN), so no silent rewrite: needs a person.
// Token rule; silent when no gfx94x target is built.
class Mi300OcpFp8Rule final : public Rule {
 public:
  Mi300OcpFp8Rule(FindingSink& sink, std::span<const std::string> target_architectures);
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;

 private:
  std::string mi300_target_;  // the first gfx94x target, or empty
};

}  // namespace hipforge::translate::analyze
