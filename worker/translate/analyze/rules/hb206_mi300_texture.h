#pragma once
#include <span>
#include <string>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB206: texture objects, texture references and surfaces in a program built for gfx94x (MI300), which has no
// texture path ("The image/texture API not supported on the device"). Token rule. When every texture in the
// file is an object over linear or pitch-linear memory read with tex1Dfetch<T>/tex2D<T>, the fix rewrites the
// reads to global loads with the same indexing (texture_shim.h); CUDA arrays, surfaces, layered/3D/cube/gather/
// LOD reads and legacy references are reported for a person. Silent when no gfx94x target is built.
// The first gfx94x (MI300) architecture among the targets, or empty (HB206, HB207).
std::string FirstMi300Target(std::span<const std::string> target_architectures);

class Mi300TextureRule final : public Rule {
 public:
  Mi300TextureRule(FindingSink& sink, std::span<const std::string> target_architectures);
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;

 private:
  std::string mi300_target_;  // the first gfx94x target, or empty
};

}  // namespace hipforge::translate::analyze
