#pragma once
// The validate role: the translated tree through hipforge::validate::Validator (builds per
// requested arch, tests, parity, profile when a GPU is present).
#include "worker/task_runner.h"

namespace hipforge::validate {
class Validator;
}

namespace hipforge::worker {

class ValidateTaskRunner final : public TaskRunner {
 public:
  explicit ValidateTaskRunner(validate::Validator& validator) : validator_(validator) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override;

 private:
  validate::Validator& validator_;
};

}  // namespace hipforge::worker
