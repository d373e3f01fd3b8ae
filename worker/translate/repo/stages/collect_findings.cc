#include "worker/translate/repo/stages/collect_findings.h"

#include <map>
#include <set>
#include <tuple>

namespace hipforge::translate {

absl::Status CollectFindings(MigrationState& state, const MigrationTools& tools) {
  MigrationResult& result = state.result;
  const std::map<std::string, RewriteResult>& rewrites = state.rewrites->by_path;
  std::map<std::string, FileTranslation>& translations = state.translations->by_path;
  SourceAnalysis& analysis = *state.analysis;
  using Key = std::tuple<std::string, std::string, uint32_t>;  // rule, path, line
  // What a rewriter left for a person on a line (nvidia-smi -> amd-smi with nvidia-smi's options): a finding of
  // that rule on that line is not fixed, whatever the rewriter changed there, and the note says what is left.
  std::map<Key, std::string> left_for_person, done;
  for (const auto& [path, rewrite] : rewrites) {
    for (const RewriteNote& note : rewrite.notes) {
      (note.left_for_person ? left_for_person : done).emplace(Key{note.origin, path, note.line}, note.message);
    }
  }
  std::set<Key> seen;
  for (Finding& finding : analysis.findings) {
    const Key key{finding.rule_id, finding.location.path, finding.location.line};
    if (auto left = left_for_person.find(key); left != left_for_person.end()) {
      finding.fix = left->second;
    } else if (auto r = rewrites.find(finding.location.path); r != rewrites.end()) {
      // A build-file finding is fixed when the rewriter changed its line under the same rule.
      if (r->second.changed_lines.count(finding.location.line) && r->second.changed_by.count(finding.rule_id)) {
        finding.auto_fixed = true;
        if (auto note = done.find(key); note != done.end()) finding.fix = note->second;  // what the rewrite did
      }
    }
    seen.insert(key);
    result.findings.push_back(std::move(finding));
  }
  for (auto& [path, translation] : translations) {
    // The translator reports for every #if branch; the analyzer knows which ones the build drops.
    MarkInactiveFindings(translation.diagnostics, analysis.files);
    for (const Finding& diagnostic : translation.diagnostics) result.findings.push_back(diagnostic);
  }
  for (const auto& [path, rewrite] : rewrites) {
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
  for (auto& [path, translation] : translations) result.translations.push_back(std::move(translation));
  if (tools.effort_estimator && state.engines->analyzer) {
    result.effort = tools.effort_estimator(result.findings, result.translations);
  } else {
    for (const Finding& finding : result.findings) {
      result.effort.by_severity[std::string(report::SeverityName(finding.severity))]++;
    }
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
