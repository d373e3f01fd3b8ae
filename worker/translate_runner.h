#pragma once
// The translate role: MigrateRepository over the extracted repo, then the translated tree packed
// as a compressed tar and the unified patch as artifacts, plus the translation report sections.
#include <string>

#include "common/archive.h"
#include "common/process.h"
#include "worker/task_runner.h"

namespace hipforge::worker {

class TranslateTaskRunner final : public TaskRunner {
 public:
  // default_hip_version ("5.2"): the HIP release to translate for when the job names none (the
  // worker's own toolchain, so the validate step's hipcc has every API the translation uses); empty:
  // the translator's default.
  TranslateTaskRunner(ProcessLauncher& launcher, ArchiveCompression compression = ArchiveCompression::kZstd,
                      std::string default_hip_version = "")
      : launcher_(launcher), compression_(compression), default_hip_version_(std::move(default_hip_version)) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override;

 private:
  ProcessLauncher& launcher_;
  ArchiveCompression compression_;
  std::string default_hip_version_;
};

}  // namespace hipforge::worker
