#pragma once
// The translate role: MigrateRepository over the extracted repo, then the translated tree packed
// as a compressed tar and the unified patch as artifacts, plus the translation report sections.
#include <cstdint>
#include <optional>
#include <string>

#include "common/archive.h"
#include "common/process.h"
#include "worker/task_runner.h"

namespace hipforge::worker {

struct TranslateRunnerOptions {
  ArchiveCompression compression = ArchiveCompression::kZstd;
  // The HIP release to translate for when the job names none ("5.2"; the worker's own toolchain, so the validate
  // step's hipcc has every API the translation uses); empty: the translator's default.
  std::string default_hip_version;
  // The PCH cache's size cap (0: unbounded); unset: the translator's default ($HIPFORGE_PCH_CACHE_SIZE, else 2 GiB).
  std::optional<uint64_t> pch_cache_bytes;
  unsigned jobs = 1;  // threads of the translator's and the analyzer's parses
};

class TranslateTaskRunner final : public TaskRunner {
 public:
  TranslateTaskRunner(ProcessLauncher& launcher, TranslateRunnerOptions options = {})
      : launcher_(launcher), options_(std::move(options)) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override;

 private:
  ProcessLauncher& launcher_;
  TranslateRunnerOptions options_;
};

}  // namespace hipforge::worker
