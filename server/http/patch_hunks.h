#pragma once
// The hunks of one file in a unified diff (the job's patch artifact), so the dashboard can show the HIP
// change beside a finding's CUDA line.
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

namespace hipforge::server::http {

struct PatchHunk {
  int old_start = 0, old_lines = 0, new_start = 0, new_lines = 0;
  std::string header;              // the "@@ ... @@" line
  std::vector<std::string> lines;  // with their ' ', '-', '+' prefix
};

// Hunks of `path` (as in the report: relative, without a/ b/ prefixes; the old or the new name).
std::vector<PatchHunk> HunksOfFile(absl::string_view patch, absl::string_view path);

}  // namespace hipforge::server::http
