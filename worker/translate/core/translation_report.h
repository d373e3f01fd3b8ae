#pragma once
// The "translation" section of the report JSON (TEAM.md) and hipify-clang-like --print-stats text.
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/translation_types.h"

namespace hipforge::translate {

nlohmann::json FileTranslationJson(const FileTranslation& file);
// {"files": [...], "totals": {...}}
nlohmann::json TranslationSectionJson(const std::vector<FileTranslation>& files);
nlohmann::json FindingJson(const Finding& finding);

// Per-file and total statistics in the spirit of hipify-clang's --print-stats.
void PrintStats(const std::vector<FileTranslation>& files, double seconds, std::ostream& out);

}  // namespace hipforge::translate
