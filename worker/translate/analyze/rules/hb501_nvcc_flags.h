#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB501: nvcc invocations and nvcc-only flags (-arch=sm_XX, -gencode, -Xptxas, -rdc, --use_fast_math, -Xcompiler, --expt-*, sm_XX names) in Makefiles, CMake, scripts, Dockerfiles, CI yaml and Python. One finding per line.
class NvccFlagsRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void checkLines(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
