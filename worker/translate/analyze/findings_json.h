#pragma once
// JSON forms of analyzer output. Findings and effort go through the report's one serializer
// (common/report/report_json.h, docs/report.md); the rule catalog and analyzed files are analyzer-only.
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/analyze/analyzer.h"

namespace hipforge::translate {

nlohmann::json FindingToJson(const Finding& finding);
// [{"rule_id", "severity", "path", "line", "column", "message", "fix", "auto_fixed", "fixable"}...]
nlohmann::json FindingsToJson(const std::vector<Finding>& findings);
// The report's "effort" section (docs/report.md)
nlohmann::json EffortToJson(const EffortEstimate& effort);
// [{"id", "severity", "title", "class", "help"}...]
nlohmann::json RuleCatalogToJson();
// [{"path", "kind", "ast_analyzed", "ast_skipped_reason"}...]
nlohmann::json AnalyzedFilesToJson(const std::vector<AnalyzedFile>& files);

}  // namespace hipforge::translate
