#pragma once
// The HIP release of a local hipcc: what translation targets when nothing else is named (the translate
// worker's default and `migrate-cli translate --hip-version auto`).
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "common/process.h"

namespace hipforge {

// "HIP version: 5.2.21153" in `hipcc --version` -> "5.2"; NotFound when hipcc is absent or silent.
absl::StatusOr<std::string> DetectHipVersion(ProcessLauncher& launcher, const std::filesystem::path& hipcc);

}  // namespace hipforge
