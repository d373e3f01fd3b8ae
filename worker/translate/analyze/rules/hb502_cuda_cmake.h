#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB502: CUDA-only CMake (LANGUAGES CUDA, enable_language(CUDA), find_package(CUDA/CUDAToolkit), CUDA:: targets,
// CMAKE_CUDA_* variables, CUDA_* target properties, FindCUDA macros). One finding per line.
class CudaCmakeRule final : public Rule {
 public:
  CudaCmakeRule(FindingSink& sink, std::span<const std::string> target_architectures)
      : Rule(sink), targets_(target_architectures.begin(), target_architectures.end()) {}
  const RuleInfo& info() const override;
  void CheckLines(const TextFile& file) override;

 private:
  std::vector<std::string> targets_;  // named in the fix text
};

}  // namespace hipforge::translate::analyze
