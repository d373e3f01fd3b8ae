#pragma once
// A ProcessLauncher for unit tests that starts nothing: it records each spec and answers with `answer`
// (exit 0 and no output when unset). Stage tests of the repository pass and the validator use it.
#include <functional>
#include <vector>

#include "common/process.h"

namespace hipforge::testing {

class RecordingLauncher final : public ProcessLauncher {
 public:
  absl::StatusOr<ProcessResult> Run(const ProcessSpec& spec) override {
    specs.push_back(spec);
    if (answer) return answer(spec);
    return ProcessResult{.exit_code = 0};
  }
  std::vector<ProcessSpec> specs;
  std::function<absl::StatusOr<ProcessResult>(const ProcessSpec&)> answer;
};

}  // namespace hipforge::testing
