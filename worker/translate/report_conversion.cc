#include "worker/translate/report_conversion.h"

namespace hipforge::translate {

report::Severity ToReportSeverity(Severity severity) {
  switch (severity) {
    case Severity::kError: return report::Severity::kError;
    case Severity::kWarning: return report::Severity::kWarning;
    case Severity::kNote: return report::Severity::kNote;
  }
  return report::Severity::kWarning;
}

report::FileStatus ToReportFileStatus(FileStatus status) {
  switch (status) {
    case FileStatus::kTranslated: return report::FileStatus::kTranslated;
    case FileStatus::kUnchanged: return report::FileStatus::kUnchanged;
    case FileStatus::kFallback: return report::FileStatus::kFallback;
    case FileStatus::kCopied: return report::FileStatus::kCopied;
    case FileStatus::kFailed: return report::FileStatus::kFailed;
  }
  return report::FileStatus::kFailed;
}

report::Finding ToReportFinding(const Finding& finding) {
  return {.rule_id = finding.rule_id,
          .severity = ToReportSeverity(finding.severity),
          .path = finding.location.path,
          .line = static_cast<int>(finding.location.line),
          .column = static_cast<int>(finding.location.column),
          .message = finding.message,
          .fix = finding.fix,
          .auto_fixed = finding.auto_fixed,
          .fixable = finding.auto_fixed || !finding.edits.empty(),
          .inactive = finding.inactive};
}

}  // namespace hipforge::translate
