#include "worker/translate/report_conversion.h"

namespace hipforge::translate {

report::Finding ToReportFinding(const Finding& finding) {
  return {.rule_id = finding.rule_id,
          .severity = finding.severity,
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
