#pragma once
#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB505: a build file reads a path outside the submitted tree (`-I../tensorAccessor-cuda`,
// `main.o: ../include/SDKBitMap.h`, `include(../common.cmake)`): the service builds only what was submitted, so a build
// or test that reads it fails there though it works in the user's checkout (50 of HeCBench's 526 program
// directories, submitted as they are: 28 of them fail to build for it, most others read test inputs there).
class OutsideTreePathRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void CheckLines(const TextFile& file) override;
};

}  // namespace hipforge::translate::analyze
