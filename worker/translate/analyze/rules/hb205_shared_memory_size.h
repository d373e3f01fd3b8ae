#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB205: shared memory beyond the 64 KiB LDS of a MI250/MI300 workgroup: a static __shared__ array larger than
// 65536 bytes, a dynamic-shared-memory attribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize) or launch size above 65536.
class SharedMemorySizeRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void registerMatchers(clang::ast_matchers::MatchFinder* finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void checkTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
