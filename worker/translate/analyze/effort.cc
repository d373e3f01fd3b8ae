// The effort model; docs/rules/effort-model.md explains the numbers. Keep the two in step.
#include <map>
#include <string>

#include "worker/translate/analyze/analyzer.h"

namespace hipforge::translate {
namespace {

constexpr double kReviewAutoFixHours = 0.1;   // reading an applied fix
constexpr double kPerFileOverheadHours = 0.25;  // rebuilding/retesting a file someone touched
constexpr double kUnconvertedHours = 0.5;       // a CUDA identifier with no mapping
constexpr double kUnsupportedHours = 1.0;       // mapped, but not in the target HIP
constexpr double kFallbackFileHours = 1.0;      // translated without the AST: review the whole file
constexpr double kFailedFileHours = 4.0;        // not translated at all

double DefaultHours(Severity severity) {
  switch (severity) {
    case Severity::kError: return 2.0;
    case Severity::kWarning: return 1.0;
    case Severity::kNote: return 0.25;
  }
  return 1.0;
}

// Rules whose manual fix is much larger or smaller than their severity suggests.
double RuleHours(const Finding& finding) {
  static const std::map<std::string, double, std::less<>> kHours = {
      {"HB201", 2.0},  {"HB202", 16.0}, {"HB205", 4.0}, {"HB302", 8.0}, {"HB304", 16.0}, {"HB401", 2.0},
      {"HB405", 3.0},  {"HB408", 6.0},  {"HB501", 0.5}, {"HB502", 0.5}, {"HB503", 0.25}, {"HB504", 0.5},
  };
  // One API call the mapping tables mark unsupported (HB304's message names the table) is a local rewrite, not
  // a library replacement.
  if (finding.rule_id == "HB304" && finding.message.find("mapping table") != std::string::npos) {
    return DefaultHours(finding.severity);
  }
  if (const auto it = kHours.find(finding.rule_id); it != kHours.end()) return it->second;
  return DefaultHours(finding.severity);
}

bool IsAutomatic(const Finding& finding) { return finding.auto_fixed || !finding.edits.empty(); }

}  // namespace

EffortEstimate EstimateEffort(const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations) {
  EffortEstimate estimate;
  std::map<std::string, FileEffort> files;
  auto file = [&](const std::string& path) -> FileEffort& {
    FileEffort& entry = files[path];
    entry.path = path;
    return entry;
  };
  double automatic_items = 0;
  double manual_items = 0;
  for (const Finding& finding : findings) {
    const double hours = IsAutomatic(finding) ? kReviewAutoFixHours : RuleHours(finding);
    FileEffort& entry = file(finding.location.path);
    entry.engineer_hours += hours;
    entry.findings_by_severity[SeverityName(finding.severity)]++;
    estimate.findings_by_severity[SeverityName(finding.severity)]++;
    (IsAutomatic(finding) ? automatic_items : manual_items) += 1;
  }
  for (const FileTranslation& translation : translations) {
    FileEffort& entry = file(translation.path);
    entry.engineer_hours += translation.stats.unconverted * kUnconvertedHours +
                            translation.stats.unsupported * kUnsupportedHours;
    if (translation.status == FileStatus::kFallback) entry.engineer_hours += kFallbackFileHours;
    if (translation.status == FileStatus::kFailed) entry.engineer_hours += kFailedFileHours;
    automatic_items += translation.stats.ConvertedTotal();
    manual_items += translation.stats.unconverted + translation.stats.unsupported;
  }
  for (auto& [path, entry] : files) {
    if (entry.engineer_hours > 0) entry.engineer_hours += kPerFileOverheadHours;
    estimate.engineer_hours += entry.engineer_hours;
    if (entry.engineer_hours > 0 || !entry.findings_by_severity.empty()) estimate.files.push_back(entry);
  }
  estimate.automatic_share =
      automatic_items + manual_items > 0 ? automatic_items / (automatic_items + manual_items) : 1.0;
  return estimate;
}

}  // namespace hipforge::translate
