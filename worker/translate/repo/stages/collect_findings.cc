#include "worker/translate/repo/stages/collect_findings.h"

#include <tuple>

namespace hipforge::translate {

absl::Status CollectFindings(MigrationState& state, const MigrationTools& tools) {
  MigrationResult& result = state.result;
  std::set<std::tuple<std::string, std::string, uint32_t>> seen;
  for (Finding& finding : state.analyzer_findings) {
    if (auto r = state.rewrites.find(finding.location.path); r != state.rewrites.end()) {
      // A build-file finding is fixed when the rewriter changed its line under the same rule.
      if (r->second.changed_lines.count(finding.location.line) && r->second.changed_by.count(finding.rule_id)) {
        finding.auto_fixed = true;
      }
    }
    seen.insert({finding.rule_id, finding.location.path, finding.location.line});
    result.findings.push_back(std::move(finding));
  }
  for (const auto& [path, translation] : state.translations) {
    for (const Finding& diagnostic : translation.diagnostics) result.findings.push_back(diagnostic);
  }
  for (const auto& [path, rewrite] : state.rewrites) {
    for (const RewriteNote& note : rewrite.notes) {
      if (note.origin.rfind("HB", 0) != 0 || !seen.insert({note.origin, path, note.line}).second) continue;
      Finding finding;
      finding.rule_id = note.origin;
      finding.severity = note.left_for_person ? Severity::kWarning : Severity::kNote;
      finding.location = {path, note.line, 1};
      finding.message = note.message;
      finding.fix = note.left_for_person ? note.message : "rewritten by the repository pass";
      finding.auto_fixed = !note.left_for_person;
      result.findings.push_back(std::move(finding));
    }
  }
  for (auto& [path, translation] : state.translations) result.translations.push_back(std::move(translation));
  if (tools.effort_estimator && state.analyzer) {
    result.effort = tools.effort_estimator(result.findings, result.translations);
  } else {
    for (const Finding& finding : result.findings) result.effort.by_severity[SeverityName(finding.severity)]++;
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
