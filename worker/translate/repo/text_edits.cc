#include "worker/translate/repo/text_edits.h"

#include <algorithm>
#include <sstream>

namespace hipforge::translate {
namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

std::string ApplyTextEdits(const std::string& original, std::vector<TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
  std::string out;
  out.reserve(original.size() + 256);
  size_t cursor = 0;
  for (const TextEdit& edit : edits) {
    if (edit.offset < cursor || edit.offset + edit.length > original.size()) continue;  // overlapping: skip
    out.append(original, cursor, edit.offset - cursor);
    out += edit.replacement;
    cursor = edit.offset + edit.length;
  }
  out.append(original, cursor, std::string::npos);
  return out;
}

int CountChangedLines(const std::string& before, const std::string& after) {
  if (before == after) return 0;
  const auto a = SplitLines(before);
  const auto b = SplitLines(after);
  // Trim the common prefix and suffix first; the LCS then runs on the changed middle only.
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  const size_t n = a.size() - prefix - suffix;
  const size_t m = b.size() - prefix - suffix;
  if (n == 0 || m == 0 || n * m > 4'000'000) return static_cast<int>(std::max(n, m));
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      lcs[i][j] =
          a[prefix + i - 1] == b[prefix + j - 1] ? lcs[i - 1][j - 1] + 1 : std::max(lcs[i - 1][j], lcs[i][j - 1]);
    }
  }
  // Changed lines = lines removed + lines added, counted as the larger of the two (a modified line is one).
  return static_cast<int>(std::max(n, m) - lcs[n][m]);
}

}  // namespace hipforge::translate
