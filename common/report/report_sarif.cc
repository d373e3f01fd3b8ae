// SARIF 2.1.0 (OASIS) for code-scanning consumers: one run, tool.driver.rules from the analyzer's
// rule catalog, one result per finding with a relative artifact location under %SRCROOT%.
#include <map>

#include "common/report/report_render.h"

namespace hipforge::report {
namespace {

using nlohmann::json;

constexpr const char* kSarifSchema = "https://json.schemastore.org/sarif-2.1.0.json";

std::string SarifLevel(const std::string& severity) {
  if (severity == "error" || severity == "warning" || severity == "note") return severity;
  return "warning";
}

json RuleDescriptor(const std::string& id, const std::string& title, const std::string& level,
                    const std::string& rule_class, const std::string& help_uri_base) {
  json rule = {{"id", id},
               {"shortDescription", {{"text", title.empty() ? "hipforge rule " + id : title}}},
               {"helpUri", help_uri_base + id + ".md"},
               {"defaultConfiguration", {{"level", SarifLevel(level)}}}};
  if (!rule_class.empty()) rule["properties"] = {{"tags", json::array({rule_class})}};
  return rule;
}

}  // namespace

json RenderSarif(const ReportDocument& document, const RenderOptions& options) {
  const Report& report = document.report;
  json rules = json::array();
  std::map<std::string, int> rule_index;
  const std::string help_uri_base = AbsoluteHelpUriBase(options.help_uri_base);
  auto add_rule = [&](json descriptor) {
    const std::string id = descriptor["id"];
    if (rule_index.count(id) != 0) return;
    rule_index[id] = static_cast<int>(rules.size());
    rules.push_back(std::move(descriptor));
  };
  if (options.rule_catalog.is_array()) {
    for (const auto& entry : options.rule_catalog) {
      add_rule(RuleDescriptor(entry.value("id", ""), entry.value("title", ""), entry.value("severity", "warning"),
                              entry.value("class", ""), help_uri_base));
    }
  }

  json results = json::array();
  for (const report::Finding& finding : report.findings.value_or(std::vector<report::Finding>{})) {
    const std::string rule_id = finding.rule_id.empty() ? "unknown" : finding.rule_id;
    const std::string level(report::SeverityName(finding.severity));  // SARIF's levels are the severity names
    add_rule(RuleDescriptor(rule_id, "", level, "", help_uri_base));  // no-op when the catalog has it

    const std::string text = finding.message.empty() ? rule_id : finding.message;
    json result = {
        {"ruleId", rule_id}, {"ruleIndex", rule_index[rule_id]}, {"level", level}, {"message", {{"text", text}}}};
    if (!finding.path.empty()) {
      json physical = {{"artifactLocation", {{"uri", RelativeUri(finding.path)}, {"uriBaseId", "%SRCROOT%"}}}};
      if (finding.line > 0) {  // SARIF regions are 1-based; a finding about a whole file has none
        physical["region"] = {{"startLine", finding.line}};
        if (finding.column > 0) physical["region"]["startColumn"] = finding.column;
      }
      result["locations"] = json::array({{{"physicalLocation", physical}}});
    }
    json properties = json::object();
    if (!finding.fix.empty()) properties["fix"] = finding.fix;
    properties["autoFixed"] = finding.auto_fixed;
    if (finding.inactive) properties["inactive"] = true;
    result["properties"] = properties;
    if (finding.auto_fixed || finding.inactive) {
      // Fixed in the migrated tree, or in code the build does not compile: not an open issue for dashboards.
      result["suppressions"] =
          json::array({{{"kind", "external"},
                        {"justification", finding.auto_fixed ? "fixed automatically by hipforge"
                                                             : "in code the build's preprocessing drops"}}});
    }
    results.push_back(std::move(result));
  }

  json driver = {{"name", "hipforge"}, {"rules", rules}};
  if (!options.tool_version.empty()) driver["version"] = options.tool_version;
  json run = {
      {"tool", {{"driver", driver}}},
      {"originalUriBaseIds", {{"%SRCROOT%", {{"description", {{"text", "Root of the analyzed CUDA repository"}}}}}}},
      {"columnKind", "unicodeCodePoints"},
      {"results", results}};
  // What the job proved (docs/report.md, "Verdict"), as every other output says it.
  const report::Verdict verdict = VerdictOf(report);
  run["properties"] = {{"hipforge.verdict", std::string(report::VerdictLevelName(verdict.level))},
                       {"hipforge.verdictSentence", report::VerdictSentence(verdict)}};
  for (const auto& [name, value] : GateProperties(document.gate)) run["properties"][name] = value;
  if (!report.job_id.empty()) run["automationDetails"] = {{"id", "hipforge/" + report.job_id}};
  return {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", json::array({run})}};
}

}  // namespace hipforge::report
