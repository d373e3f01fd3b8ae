#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB205: shared memory beyond the 64 KiB LDS of a MI250/MI300 workgroup: a static __shared__ array larger than
// 65536 bytes, a dynamic-shared-memory attribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize) or launch size above 65536, and kernels whose static
// __shared__ arrays (their own and those of the device functions they call) add up to more than 65536.
class SharedMemorySizeRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void onEndOfTranslationUnit() override;
  void CheckTokens(const TextFile& file) override;

 private:
  struct FunctionUsage {
    long long own_bytes = 0;           // static __shared__ declared in the function itself
    bool has_oversized_array = false;  // one array alone is over the limit (reported at the array)
  };
  std::map<const clang::FunctionDecl*, FunctionUsage> usage_;
  std::vector<const clang::FunctionDecl*> kernels_;
  const clang::SourceManager* source_manager_ = nullptr;
};

}  // namespace hipforge::translate::analyze
