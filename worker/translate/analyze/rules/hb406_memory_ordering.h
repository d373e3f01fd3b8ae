#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB406: memory-ordering assumptions: __threadfence*, *_system atomics (token form, always), and device-code
// spin-waits on memory other blocks write (AST form: a loop whose condition reads a volatile object outside
// __shared__ memory, or spins on atomicCAS/atomicExch of non-shared memory).
class MemoryOrderingRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
