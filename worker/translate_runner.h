#pragma once
// The translate role: MigrateRepository over the extracted repo, then the translated tree packed
// as a compressed tar and the unified patch as artifacts, plus the translation report sections.
#include "common/archive.h"
#include "common/process.h"
#include "worker/task_runner.h"

namespace hipforge::worker {

class TranslateTaskRunner final : public TaskRunner {
 public:
  TranslateTaskRunner(ProcessLauncher& launcher, ArchiveCompression compression = ArchiveCompression::kZstd)
      : launcher_(launcher), compression_(compression) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override;

 private:
  ProcessLauncher& launcher_;
  ArchiveCompression compression_;
};

}  // namespace hipforge::worker
