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
      {"HB405", 3.0},  {"HB408", 6.0},  {"HB501", 0.5}, {"HB502", 0.5}, {"HB503", 0.25}, {"HB504", 0.5}, {"HB505", 0.25},
  };
  // One API call the mapping tables mark unsupported (HB304's message names the table) is a local rewrite, not
  // a library replacement.
  if (finding.rule_id == "HB304" && finding.message.find("mapping table") != std::string::npos) {
    return DefaultHours(finding.severity);
  }
  if (const auto it = kHours.find(finding.rule_id); it != kHours.end()) return it->second;
  return DefaultHours(finding.severity);
}

// Accumulates the itemised computation: one item per (what, hours each), in first-seen order.
class Items {
 public:
  void Add(const std::string& what, double hours_each, int count = 1) {
    if (count <= 0) return;
    auto [it, inserted] = index_.try_emplace(what, items_.size());
    if (inserted) items_.push_back({.what = what, .count = 0, .hours_each = hours_each, .hours = 0});
    report::EffortItem& item = items_[it->second];
    item.count += count;
    item.hours = item.count * item.hours_each;
  }
  std::vector<report::EffortItem> Take() { return std::move(items_); }

 private:
  std::map<std::string, size_t> index_;
  std::vector<report::EffortItem> items_;
};

}  // namespace

EffortEstimate EstimateEffort(const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations) {
  EffortEstimate estimate;
  estimate.model = "docs/rules/effort-model.md";
  std::map<std::string, FileEffort> files;
  auto file = [&](const std::string& path) -> FileEffort& {
    FileEffort& entry = files[path];
    entry.path = path;
    return entry;
  };
  Items items;
  double automatic_items = 0;
  double manual_items = 0;
  for (const Finding& finding : findings) {
    if (finding.auto_fixed) {  // applied to the migrated tree: nothing left (the report lists it as fixed)
      automatic_items += 1;
      continue;
    }
    const std::string severity = SeverityName(finding.severity);
    FileEffort& entry = file(finding.location.path);
    entry.by_severity[severity]++;
    estimate.by_severity[severity]++;
    if (!finding.edits.empty()) {  // an automatic fix exists but was not applied (e.g. `analyze`)
      items.Add("apply and review an automatic fix", kReviewAutoFixHours);
      entry.engineer_hours += kReviewAutoFixHours;
      automatic_items += 1;
      continue;
    }
    const double hours = RuleHours(finding);
    items.Add(severity + " " + finding.rule_id + " without an automatic fix", hours);
    entry.engineer_hours += hours;
    manual_items += 1;
  }
  for (const FileTranslation& translation : translations) {
    FileEffort& entry = file(translation.path);
    items.Add("unconverted CUDA identifier (no mapping)", kUnconvertedHours, translation.stats.unconverted);
    items.Add("API unsupported in the target HIP", kUnsupportedHours, translation.stats.unsupported);
    entry.engineer_hours += translation.stats.unconverted * kUnconvertedHours +
                            translation.stats.unsupported * kUnsupportedHours;
    if (translation.status == FileStatus::kFallback) {
      items.Add("file translated without the AST (read it whole)", kFallbackFileHours);
      entry.engineer_hours += kFallbackFileHours;
    }
    if (translation.status == FileStatus::kFailed) {
      items.Add("file that failed to translate", kFailedFileHours);
      entry.engineer_hours += kFailedFileHours;
    }
    automatic_items += translation.stats.ConvertedTotal();
    manual_items += translation.stats.unconverted + translation.stats.unsupported;
  }
  for (auto& [path, entry] : files) {
    if (entry.engineer_hours > 0) {
      entry.engineer_hours += kPerFileOverheadHours;
      items.Add("rebuild and retest a file a person changes", kPerFileOverheadHours);
    }
    estimate.engineer_hours += entry.engineer_hours;
    if (entry.engineer_hours > 0 || !entry.by_severity.empty()) estimate.files.push_back(entry);
  }
  estimate.items = items.Take();
  estimate.automatic_share =
      automatic_items + manual_items > 0 ? automatic_items / (automatic_items + manual_items) : 1.0;
  return estimate;
}

}  // namespace hipforge::translate
