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

class TranslateTaskRunner final : public TaskRunner {
 public:
  // default_hip_version ("5.2"): the HIP release to translate for when the job names none (the
  // worker's own toolchain, so the validate step's hipcc has every API the translation uses); empty:
  // the translator's default. pch_cache_bytes: the PCH cache's size cap (0: unbounded); unset: the translator's
  // default ($HIPFORGE_PCH_CACHE_SIZE, else 2 GiB).
  TranslateTaskRunner(ProcessLauncher& launcher, ArchiveCompression compression = ArchiveCompression::kZstd,
                      std::string default_hip_version = "", std::optional<uint64_t> pch_cache_bytes = std::nullopt)
      : launcher_(launcher),
        compression_(compression),
        default_hip_version_(std::move(default_hip_version)),
        pch_cache_bytes_(pch_cache_bytes) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override;

 private:
  ProcessLauncher& launcher_;
  ArchiveCompression compression_;
  std::string default_hip_version_;
  std::optional<uint64_t> pch_cache_bytes_;
};

}  // namespace hipforge::worker
