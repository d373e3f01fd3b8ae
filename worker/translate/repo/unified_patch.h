#pragma once
// The input tree -> output tree patch, made by `diff -ruN` (no hand-written diff).
#include <filesystem>
#include <string>

#include "absl/status/statusor.h"
#include "common/process.h"

namespace hipforge::translate {

// Paths in the patch are a/<relative> and b/<relative> (apply with `patch -p1` or `git apply`).
absl::StatusOr<std::string> MakeUnifiedPatch(ProcessLauncher& launcher, const std::filesystem::path& input_root,
                                             const std::filesystem::path& output_root);

}  // namespace hipforge::translate
