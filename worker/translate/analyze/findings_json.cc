#include "worker/translate/analyze/findings_json.h"

namespace hipforge::translate {

nlohmann::json FindingToJson(const Finding& finding) {
  return nlohmann::json{{"rule_id", finding.rule_id},
                        {"severity", SeverityName(finding.severity)},
                        {"path", finding.location.path},
                        {"line", finding.location.line},
                        {"column", finding.location.column},
                        {"message", finding.message},
                        {"fix", finding.fix},
                        {"auto_fixed", finding.auto_fixed},
                        {"fixable", !finding.edits.empty()}};
}

nlohmann::json FindingsToJson(const std::vector<Finding>& findings) {
  nlohmann::json array = nlohmann::json::array();
  for (const Finding& finding : findings) array.push_back(FindingToJson(finding));
  return array;
}

nlohmann::json EffortToJson(const EffortEstimate& effort) {
  nlohmann::json files = nlohmann::json::array();
  for (const FileEffort& file : effort.files) {
    files.push_back({{"path", file.path}, {"engineer_hours", file.engineer_hours}, {"by_severity", file.findings_by_severity}});
  }
  return nlohmann::json{{"engineer_hours", effort.engineer_hours},
                        {"automatic_share", effort.automatic_share},
                        {"by_severity", effort.findings_by_severity},
                        {"files", files}};
}

nlohmann::json RuleCatalogToJson() {
  nlohmann::json array = nlohmann::json::array();
  for (const RuleDescription& rule : RuleCatalog()) {
    array.push_back({{"id", rule.id},
                     {"severity", SeverityName(rule.severity)},
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
