#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB204: compute-capability gates. `#if __CUDA_ARCH__ >= 700` (comparisons only; `#ifdef __CUDA_ARCH__` is a
// host/device split and stays silent), cudaDeviceProp major/minor compared with numbers (AST: the object must be
// a cudaDeviceProp), cudaDevAttrComputeCapabilityMajor/Minor.
class ComputeCapabilityGateRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
