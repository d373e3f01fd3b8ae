#pragma once
// Applying TextEdits (replacements on original bytes) and counting the lines they touch.
#include <set>
#include <string>
#include <vector>

#include "worker/translate/translation_types.h"

namespace hipforge::translate {

// Applies non-overlapping edits (any order; an edit overlapping an earlier-sorted one is dropped).
std::string ApplyTextEdits(const std::string& original, std::vector<TextEdit> edits);

// Number of lines that differ between `before` and `after` (LCS over lines; small files only matter here).
int CountChangedLines(const std::string& before, const std::string& after);

}  // namespace hipforge::translate
