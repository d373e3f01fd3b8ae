#include "server/http/patch_hunks.h"

#include <cstdlib>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"

namespace hipforge::server::http {
namespace {

// "--- a/src/x.cu\t2024-..." -> "src/x.cu"
absl::string_view FileName(absl::string_view line) {
  line.remove_prefix(4);
  if (const size_t tab = line.find('\t'); tab != absl::string_view::npos) line = line.substr(0, tab);
  if (absl::StartsWith(line, "a/") || absl::StartsWith(line, "b/")) line.remove_prefix(2);
  return line;
}

// "-12,5" -> {12, 5}; "-12" -> {12, 1}
void ParseRange(absl::string_view text, int& start, int& count) {
  text.remove_prefix(1);
  const std::string s(text);
  char* end = nullptr;
  start = static_cast<int>(std::strtol(s.c_str(), &end, 10));
  count = (end != nullptr && *end == ',') ? static_cast<int>(std::strtol(end + 1, nullptr, 10)) : 1;
}

}  // namespace

std::vector<PatchHunk> HunksOfFile(absl::string_view patch, absl::string_view path) {
  std::vector<PatchHunk> hunks;
  absl::string_view old_name;
  bool in_file = false;
  PatchHunk* hunk = nullptr;
  for (absl::string_view line : absl::StrSplit(patch, '\n')) {
    if (absl::StartsWith(line, "--- ")) {
      old_name = FileName(line);
      hunk = nullptr;
      in_file = false;
      continue;
    }
    if (absl::StartsWith(line, "+++ ")) {
      in_file = old_name == path || FileName(line) == path;
      continue;
    }
    if (absl::StartsWith(line, "diff ")) {
      in_file = false;
      hunk = nullptr;
      continue;
    }
    if (!in_file) continue;
    if (absl::StartsWith(line, "@@ ")) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ' ');
      if (parts.size() < 4) continue;
      PatchHunk next;
      next.header = std::string(line);
      ParseRange(parts[1], next.old_start, next.old_lines);
      ParseRange(parts[2], next.new_start, next.new_lines);
      hunks.push_back(std::move(next));
      hunk = &hunks.back();
      continue;
    }
    if (hunk != nullptr && !line.empty() && (line[0] == ' ' || line[0] == '-' || line[0] == '+' || line[0] == '\\')) {
      hunk->lines.emplace_back(line);
    }
  }
  return hunks;
}

}  // namespace hipforge::server::http
