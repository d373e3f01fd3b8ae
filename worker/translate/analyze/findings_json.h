#pragma once
// JSON forms of analyzer output, in the report's field names (TEAM.md "findings" and "effort" sections).
// The client renders SARIF/text from these.
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/analyze/analyzer.h"

namespace hipforge::translate {

nlohmann::json FindingToJson(const Finding& finding);
// [{"rule_id", "severity", "path", "line", "column", "message", "fix", "auto_fixed", "fixable"}...]
nlohmann::json FindingsToJson(const std::vector<Finding>& findings);
// {"engineer_hours", "automatic_share", "by_severity", "files": [{"path", "engineer_hours", "by_severity"}]}
nlohmann::json EffortToJson(const EffortEstimate& effort);
// [{"id", "severity", "title", "class", "help"}...]
nlohmann::json RuleCatalogToJson();
// [{"path", "kind", "ast_analyzed", "ast_skipped_reason"}...]
nlohmann::json AnalyzedFilesToJson(const std::vector<AnalyzedFile>& files);

}  // namespace hipforge::translate
