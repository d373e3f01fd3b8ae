#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB405: legacy texture/surface references (`texture<T, dim, mode> tex;`, `surface<void, 2> surf;`,
// cudaBindTexture*, cudaUnbindTexture, cudaBindSurfaceToArray). Removed from CUDA 12 and not supported by
// current HIP: texture objects are needed. Token rule (such files do not parse with CUDA 12+ headers).
class TextureReferenceRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
