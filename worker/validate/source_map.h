#pragma once
// Maps a position in the translated HIP tree back to the ORIGINAL CUDA file and line.
// The translator keeps relative paths and (mostly) line structure, so the mapping is by path:
// same relative path (or the same stem with a CUDA extension when the translator renamed the
// file), then per line: identity when both files have the same number of lines, otherwise an
// alignment on unchanged lines. A translator-provided line map, when given, wins.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge::validate {

struct OriginalPosition {
  std::string path;  // relative to the original tree when mapped, else the translated relative path
  int line = 0;
  bool mapped = false;  // false: no original file found; path/line are the translated ones
};

class SourceMapper {
 public:
  // line_map_file: optional JSON-lines file, one object per translated file:
  //   {"translated": "src/a.hip", "original": "src/a.cu", "lines": [[t1, o1], [t2, o2], ...]}
  // where each pair says translated line t maps to original line o (lines between two pairs are
  // offset from the previous pair).
  static absl::StatusOr<SourceMapper> Create(std::filesystem::path translated_root, std::filesystem::path original_root,
                                             const std::filesystem::path& line_map_file);

  // `path` as the compiler printed it (absolute, or relative to `compiler_cwd`).
  OriginalPosition Map(const std::string& path, int line, const std::filesystem::path& compiler_cwd = {}) const;

 private:
  struct FileMap {
    std::string original;                      // relative path in the original tree
    std::vector<std::pair<int, int>> anchors;  // sorted (translated line, original line)
  };
  const FileMap* FileFor(const std::string& translated_relative) const;

  std::filesystem::path translated_root_;
  std::filesystem::path original_root_;
  std::map<std::string, FileMap> explicit_maps_;
  mutable std::map<std::string, FileMap> computed_maps_;  // cache, filled lazily
};

// Line alignment of two versions of one file: anchors (line in `after`, line in `before`), 1-based,
// on lines that are identical and in the same order (longest common subsequence on stripped lines).
std::vector<std::pair<int, int>> AlignLines(const std::vector<std::string>& before,
                                            const std::vector<std::string>& after);

}  // namespace hipforge::validate
