#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB106: a file that reads the lane id from PTX %laneid (HB201 rewrites it to __lane_id(), 0..63 on a 64-wide
// wavefront) and computes or checks lane ids with 32-lane constants. Token rule.
class LaneIdRangeRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
