#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB504: NVIDIA tools (nvidia-smi, nvprof, nsys, ncu, cuda-memcheck, compute-sanitizer, ...) in scripts and build files
// (lines) and in C/C++ string literals (system/popen).
class NvidiaToolRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckLines(const TextFile& file) override;
  void CheckTokens(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
