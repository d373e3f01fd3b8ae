#include "worker/translate/analyze/findings_json.h"

#include "worker/translate/report_conversion.h"

#include "common/report/report_json.h"

namespace hipforge::translate {

nlohmann::json FindingToJson(const Finding& finding) { return report::FindingToJson(ToReportFinding(finding)); }

nlohmann::json FindingsToJson(const std::vector<Finding>& findings) {
  nlohmann::json array = nlohmann::json::array();
  for (const Finding& finding : findings) array.push_back(FindingToJson(finding));
  return array;
}

nlohmann::json EffortToJson(const EffortEstimate& effort) { return report::EffortToJson(effort); }

nlohmann::json RuleCatalogToJson() {
  nlohmann::json array = nlohmann::json::array();
  for (const RuleDescription& rule : RuleCatalog()) {
    array.push_back({{"id", rule.id},
                     {"severity", report::SeverityName(rule.severity)},
                     {"title", rule.title},
                     {"class", rule.rule_class},
                     {"help", rule.help_path}});
  }
  return array;
}

nlohmann::json AnalyzedFilesToJson(const std::vector<AnalyzedFile>& files) {
  nlohmann::json array = nlohmann::json::array();
  for (const AnalyzedFile& file : files) {
    array.push_back({{"path", file.path},
                     {"kind", file.kind},
                     {"ast_analyzed", file.ast_analyzed},
                     {"ast_skipped_reason", file.ast_skipped_reason}});
  }
  return array;
}

}  // namespace hipforge::translate
