#pragma once
// Lossless JSON of findings and edits for the content-hash caches (facts of a unit, the analyzer's results of a
// shared parse). Not the report's form (findings_json.h): this one keeps the edits and round-trips exactly.
#include <nlohmann/json.hpp>

#include "worker/translate/translation_types.h"

namespace hipforge::translate {

nlohmann::json EditCacheJson(const TextEdit& edit);
TextEdit EditFromCacheJson(const nlohmann::json& value);  // throws nlohmann::json::exception on bad input
nlohmann::json FindingCacheJson(const Finding& finding);
Finding FindingFromCacheJson(const nlohmann::json& value);  // throws nlohmann::json::exception on bad input

}  // namespace hipforge::translate
