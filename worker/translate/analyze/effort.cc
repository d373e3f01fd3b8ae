// The effort model; docs/rules/effort-model.md explains the numbers. Keep the two in step.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/core/name_resolver.h"

namespace hipforge::translate {
namespace {

constexpr double kReviewAutoFixHours = 0.1;     // reading an applied fix
constexpr double kPerFileOverheadHours = 0.25;  // rebuilding/retesting a file someone touched
constexpr double kFallbackFileHours = 1.0;      // translated without the AST: review the whole file
constexpr double kFailedFileHours = 4.0;        // not translated at all
// A rule again in a file where it was already charged: the same change, applied again (10 x HB206 for one texture
// pattern is one piece of work, not ten).
constexpr double kRepeatShare = 0.1;

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
      {kRuleInlinePtx, 2.0},
      {kRuleTensorCore, 16.0},
      {kRuleSharedMemorySize, 4.0},
      {kRuleCublasLt, 8.0},
      {kRuleNoRocmEquivalent, 16.0},
      {kRuleCudaGraph, 2.0},
      {kRuleTextureReference, 3.0},
      {kRuleDriverModule, 6.0},
      {kRuleNvccFlags, 0.5},
      {kRuleCudaCmake, 0.5},
      {kRuleCudaEnvVar, 0.25},
      {kRuleNvidiaTool, 0.5},
      {kRuleOutsideTreePath, 0.25},
      // A CUDA-looking name no table knows (reported once per name and file): look it up or write it.
      {std::string(kRuleUnknownCuda), 0.5},
      // The file's fallback translation: charged once as the file's "read it whole" item.
      {std::string(kRuleFallback), 0.0},
  };
  if (finding.one_call) return DefaultHours(finding.severity);  // HB304 for one unsupported call: a local rewrite
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

// What an open finding costs when it is the only one on its line. `what` names the kind of item; a kind already
// charged in the file costs kRepeatShare of its hours.
struct Charge {
  std::string kind;
  std::string what;
  double hours = 0;
};

Charge ChargeOf(const Finding& finding, const std::set<std::string>& kinds_charged) {
  if (!finding.edits.empty()) {  // an automatic fix exists but was not applied (e.g. `analyze`)
    return {"review", "apply and review an automatic fix", kReviewAutoFixHours};
  }
  std::string kind = std::string(report::SeverityName(finding.severity)) + " " + finding.rule_id;
  if (finding.one_call) kind += " (one call)";
  const double hours = RuleHours(finding);
  if (kinds_charged.count(kind)) {
    return {kind, kind + " without an automatic fix, again in the same file", hours * kRepeatShare};
  }
  return {kind, kind + " without an automatic fix", hours};
}

// One charge per place: the findings of one line cost the largest of their charges, the others nothing (a dead
// line once showed HB304, TR001 and the unsupported count for one call). Line 0 (unknown) is no shared place.
void ChargeFile(const std::vector<const Finding*>& open, Items& items, FileEffort& entry) {
  std::vector<std::vector<const Finding*>> places;
  for (const Finding* finding : open) {
    const bool same_place = !places.empty() && finding->location.line != 0 &&
                            places.back().front()->location.line == finding->location.line;
    if (same_place) {
      places.back().push_back(finding);
    } else {
      places.push_back({finding});
    }
  }
  std::set<std::string> kinds_charged;
  for (const auto& place : places) {
    std::vector<Charge> charges;
    for (const Finding* finding : place) charges.push_back(ChargeOf(*finding, kinds_charged));
    const auto largest = std::max_element(charges.begin(), charges.end(),
                                          [](const Charge& a, const Charge& b) { return a.hours < b.hours; });
    items.Add(largest->what, largest->hours);
    items.Add("another finding on a line already charged", 0, static_cast<int>(charges.size()) - 1);
    entry.engineer_hours += largest->hours;
    kinds_charged.insert(largest->kind);
  }
}

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
  std::map<std::string, std::vector<const Finding*>> open;  // open findings in active code, by file
  for (const Finding& finding : findings) {
    if (finding.auto_fixed) {  // applied to the migrated tree: nothing left (the report lists it as fixed)
      automatic_items += 1;
      continue;
    }
    if (finding.inactive) {  // the build never compiles the line: listed, not charged
      items.Add("finding in lines the build's preprocessing drops (listed, not charged)", 0);
      continue;
    }
    const std::string severity(report::SeverityName(finding.severity));
    FileEffort& entry = file(finding.location.path);
    entry.by_severity[severity]++;
    estimate.by_severity[severity]++;
    (finding.edits.empty() ? manual_items : automatic_items) += 1;
    open[finding.location.path].push_back(&finding);
  }
  for (auto& [path, list] : open) {
    std::stable_sort(list.begin(), list.end(), [](const Finding* a, const Finding* b) {
      return std::tie(a->location.line, a->location.column) < std::tie(b->location.line, b->location.column);
    });
    ChargeFile(list, items, file(path));
  }
  for (const FileTranslation& translation : translations) {
    FileEffort& entry = file(translation.path);
    // The translator's unconverted and unsupported counts are not charged again: each unsupported API is a
    // finding at its place (TR001-TR004, TR006), each unknown name a TR008 once per file, charged above.
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
