#include "worker/validate/source_map.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> ReadLines(const fs::path& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) lines.push_back(std::string(absl::StripAsciiWhitespace(line)));
  return lines;
}

bool IsInside(const fs::path& root, const fs::path& path) {
  auto rel = path.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// Candidate original names for a translated file: same path first, then CUDA extensions, then
// "_hip"/"hip_" naming undone (foo_hip.cpp -> foo.cu).
std::vector<fs::path> OriginalCandidates(const fs::path& translated_relative) {
  std::vector<fs::path> out = {translated_relative};
  fs::path stem = translated_relative;
  stem.replace_extension();
  std::string stem_name = stem.filename().string();
  std::vector<std::string> stems = {stem_name};
  for (std::string_view marker : {"_hip", ".hip"}) {
    if (stem_name.size() > marker.size() && stem_name.ends_with(marker)) {
      stems.push_back(stem_name.substr(0, stem_name.size() - marker.size()));
    }
  }
  for (const std::string& s : stems) {
    for (const char* ext : {".cu", ".cuh", ".cpp", ".h", ".hpp", ".cc"}) {
      out.push_back(stem.parent_path() / (s + ext));
    }
  }
  return out;
}

}  // namespace

std::vector<std::pair<int, int>> AlignLines(const std::vector<std::string>& before,
                                            const std::vector<std::string>& after) {
  const size_t n = before.size(), m = after.size();
  std::vector<std::pair<int, int>> anchors;
  // Files far beyond usual source sizes: fall back to proportional mapping rather than O(n*m) memory.
  if (n == 0 || m == 0 || n * m > 16'000'000) {
    if (n > 0 && m > 0) anchors.emplace_back(1, 1);
    return anchors;
  }
  // LCS lengths from the end; uint16 suffices since min(n, m) <= 4000 under the cap above (32 MB at most).
  std::vector<std::vector<uint16_t>> lcs(n + 1, std::vector<uint16_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] =
          before[i] == after[j] ? static_cast<uint16_t>(lcs[i + 1][j + 1] + 1) : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    if (before[i] == after[j]) {
      anchors.emplace_back(static_cast<int>(j + 1), static_cast<int>(i + 1));
      ++i, ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return anchors;
}

absl::StatusOr<SourceMapper> SourceMapper::Create(fs::path translated_root, fs::path original_root,
                                                  const fs::path& line_map_file) {
  SourceMapper mapper;
  std::error_code ec;
  mapper.translated_root_ = fs::weakly_canonical(translated_root, ec);
  mapper.original_root_ = original_root.empty() ? fs::path() : fs::weakly_canonical(original_root, ec);
  if (line_map_file.empty()) return mapper;
  std::ifstream in(line_map_file);
  if (!in) return absl::NotFoundError(absl::StrCat("line map not readable: ", line_map_file.string()));
  std::string text;
  int line_number = 0;
  while (std::getline(in, text)) {
    ++line_number;
    if (absl::StripAsciiWhitespace(text).empty()) continue;
    auto entry = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (entry.is_discarded() || !entry.contains("translated") || !entry.contains("original")) {
      return absl::InvalidArgumentError(absl::StrCat("line map ", line_map_file.string(), ":", line_number,
                                                     ": expected {translated, original, lines}"));
    }
    FileMap map{.original = entry["original"].get<std::string>()};
    for (const auto& pair : entry.value("lines", nlohmann::json::array())) {
      if (pair.is_array() && pair.size() == 2) map.anchors.emplace_back(pair[0].get<int>(), pair[1].get<int>());
    }
    std::sort(map.anchors.begin(), map.anchors.end());
    mapper.explicit_maps_[entry["translated"].get<std::string>()] = std::move(map);
  }
  return mapper;
}

const SourceMapper::FileMap* SourceMapper::FileFor(const std::string& translated_relative) const {
  if (auto it = explicit_maps_.find(translated_relative); it != explicit_maps_.end()) return &it->second;
  if (auto it = computed_maps_.find(translated_relative); it != computed_maps_.end()) {
    return it->second.original.empty() ? nullptr : &it->second;
  }
  FileMap& map = computed_maps_[translated_relative];
  if (original_root_.empty()) return nullptr;
  for (const fs::path& candidate : OriginalCandidates(translated_relative)) {
    if (!fs::is_regular_file(original_root_ / candidate)) continue;
    map.original = candidate.generic_string();
    std::vector<std::string> before = ReadLines(original_root_ / candidate);
    std::vector<std::string> after = ReadLines(translated_root_ / translated_relative);
    if (before.size() == after.size()) {
      map.anchors = {{1, 1}};  // line structure kept: identity
    } else {
      map.anchors = AlignLines(before, after);
    }
    return &map;
  }
  return nullptr;
}

OriginalPosition SourceMapper::Map(const std::string& path, int line, const fs::path& compiler_cwd) const {
  fs::path p(path);
  if (p.is_relative() && !compiler_cwd.empty()) p = compiler_cwd / p;
  std::error_code ec;
  fs::path absolute = fs::weakly_canonical(p, ec);
  if (ec || !IsInside(translated_root_, absolute)) return {.path = path, .line = line, .mapped = false};
  std::string relative = absolute.lexically_relative(translated_root_).generic_string();
  const FileMap* map = FileFor(relative);
  if (map == nullptr) return {.path = relative, .line = line, .mapped = false};
  int original_line = line;
  if (!map->anchors.empty()) {
    // Last anchor at or before `line`; lines after it keep their offset.
    auto it = std::upper_bound(map->anchors.begin(), map->anchors.end(), std::make_pair(line, INT32_MAX));
    if (it == map->anchors.begin()) {
      original_line = line - it->first + it->second;
    } else {
      --it;
      original_line = line - it->first + it->second;
    }
    original_line = std::max(original_line, 1);
  }
  return {.path = map->original, .line = original_line, .mapped = true};
}

}  // namespace hipforge::validate
