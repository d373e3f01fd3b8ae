#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB501: nvcc invocations and nvcc-only flags (-arch=sm_XX, -gencode, -Xptxas, -rdc, --use_fast_math, -Xcompiler,
// --expt-*, sm_XX names) in Makefiles, CMake, scripts, Dockerfiles, CI yaml and Python. One finding per line.
class NvccFlagsRule final : public Rule {
 public:
  NvccFlagsRule(FindingSink& sink, std::span<const std::string> target_architectures)
      : Rule(sink), targets_(target_architectures.begin(), target_architectures.end()) {}
  const RuleInfo& info() const override;
  void CheckLines(const TextFile& file) override;

 private:
  std::vector<std::string> targets_;  // named in the fix text
};

}  // namespace hipforge::translate::analyze
