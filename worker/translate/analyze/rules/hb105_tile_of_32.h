#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB105: cooperative-group tiles of 32 (tiled_partition<32>, thread_block_tile<32>, tiled_partition(g, 32)). Token
// rule; a macro defined as 32 in the same file counts.
class TileOf32Rule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
