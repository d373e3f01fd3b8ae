#pragma once
// The repository pass: a whole CUDA repository in, a HIP repository that builds on ROCm out. Its types
// (MigrationOptions, FileSummary, MigrationResult) are migration_types.h's.
#include <filesystem>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "common/report/report.h"
#include "worker/translate/repo/migration_types.h"

namespace hipforge::translate {

// Writes the migrated tree to `output_root` (created; must not be inside `input_root`).
absl::StatusOr<MigrationResult> MigrateRepository(const std::filesystem::path& input_root,
                                                  const std::filesystem::path& output_root,
                                                  const MigrationOptions& options, const ProgressCallback& progress);

// The "translation", "findings" and "effort" sections of the report (docs/report.md).
report::Report ToReport(const MigrationResult& result);
nlohmann::json ToReportJson(const MigrationResult& result);  // report::ToJson(ToReport(result))

// What the validate step must know from this pass (managed memory -> HSA_XNACK); the translate worker sends it
// with its completion and the server puts it in the validate task's payload without interpreting it.
report::ValidateHints ValidateHintsFor(const MigrationResult& result);

}  // namespace hipforge::translate
