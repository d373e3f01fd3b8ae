// Human-readable report: what was translated, what was fixed for you, what is left for a person (and what it
// costs), and how the builds and tests went. Reads the typed report (common/report); a section the report does
// not have is left out, a section that is there but empty says "none".
#include <cstdio>
#include <optional>
#include <sstream>

#include "absl/strings/str_format.h"
#include "common/report/report_render.h"

namespace hipforge::report {
namespace {

using report::Finding;

std::string Join(const std::vector<std::string>& values) {
  std::string joined;
  for (const std::string& value : values) {
    if (!joined.empty()) joined += ", ";
    joined += value;
  }
  return joined;
}

std::string Seconds(int64_t milliseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", milliseconds / 1000.0);
  return text;
}

// The job's hours left as the dashboard shows them (JavaScript's toFixed(1): half up on the double's exact value),
// so 1.25 h is 1.3 h in both; printf's %.1f rounds that tie to even (1.2).
std::string HoursLeft(double hours) {
  char exact[64];
  std::snprintf(exact, sizeof exact, "%.25f", hours);  // exact digits far past the one that decides
  std::string text = exact;
  const size_t point = text.find('.');
  const bool up = text[point + 2] >= '5';
  text.resize(point + 2);
  for (size_t i = text.size(); up && i-- > 0;) {
    if (text[i] == '.') continue;
    if (text[i] != '9') {
      ++text[i];
      break;
    }
    text[i] = '0';
    if (i == 0) text.insert(0, "1");
  }
  return text + " h";
}

std::string Hours(double hours) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g h", hours);
  if (hours >= 1.0) std::snprintf(text, sizeof text, "%.1f h", hours);
  return text;
}

// "3 errors", "1 warning"
std::string Count(int n, const char* one) { return std::to_string(n) + " " + one + (n == 1 ? "" : "s"); }

std::string Location(const Finding& finding) {
  std::string where = finding.path.empty() ? "?" : finding.path;
  if (finding.line > 0) where += ":" + std::to_string(finding.line);
  if (finding.column > 0) where += ":" + std::to_string(finding.column);
  return where;
}

// The files no listing below names (issue 26: "10 files, 8 translated" left the 2 unnamed): the first few.
void RenderUntouched(const std::vector<report::FileEntry>& files, std::ostream& out) {
  constexpr int kNamed = 8;
  std::string named;
  int untouched = 0;
  for (const report::FileEntry& file : files) {
    if (file.status != report::FileStatus::kUnchanged && file.status != report::FileStatus::kCopied) continue;
    if (!file.left_for_person.empty()) continue;  // listed with its steps
    if (++untouched <= kNamed) named += (named.empty() ? "" : ", ") + file.path;
  }
  if (untouched == 0) return;
  out << "  as submitted: " << named;
  if (untouched > kNamed) out << " and " << untouched - kNamed << " more";
  out << "\n";
}

void RenderTranslation(const report::TranslationSection& translation, std::ostream& out) {
  const report::TranslationTotals& t = translation.totals;
  out << "Translation: " << t.files << " files, " << t.translated << " translated, " << t.fallback << " fallback";
  if (t.failed > 0) out << ", " << t.failed << " failed";
  if (t.unchanged + t.copied > 0) out << ", " << t.unchanged + t.copied << " as submitted";
  out << ", " << t.converted << " API uses converted, " << t.unsupported << " unsupported, " << t.lines_changed
      << " lines changed\n";
  // The job's progress counters (status, the dashboard): the same words the translate step prints.
  if (t.cuda_files > 0) out << "  CUDA files: " << report::CudaFilesSummary(t) << "\n";
  RenderUntouched(translation.files, out);
  for (const report::FileEntry& file : translation.files) {
    const bool changed = file.status != report::FileStatus::kUnchanged && file.status != report::FileStatus::kCopied;
    if (!changed && file.left_for_person.empty()) continue;  // keep the list to what changed or needs a person
    out << "  " << file.path << "  " << report::FileStatusName(file.status);
    if (file.lines_changed > 0) out << ", " << file.lines_changed << " lines changed";
    if (file.unsupported > 0) out << ", " << file.unsupported << " unsupported";
    if (!file.changed_by.empty()) out << "  [" << Join(file.changed_by) << "]";
    out << "\n";
    if (!file.fallback_reason.empty()) out << "      reason: " << file.fallback_reason << "\n";
    for (const std::string& step : file.left_for_person) out << "      to do: " << step << "\n";
  }
  for (const std::string& note : translation.notes) out << "  note: " << note << "\n";
}

// The findings in one state, under a heading with their count ("Fixed automatically: 2 findings").
void RenderFindingsIn(const std::vector<Finding>& findings, report::FixStage stage, report::FindingState state,
                      const std::string& heading, const char* fix_label, std::ostream& out) {
  std::ostringstream listed;
  int count = 0;
  for (const Finding& finding : findings) {
    if (report::StateOf(finding, stage) != state) continue;
    ++count;
    listed << "  " << Location(finding) << ": "
           << (state == report::FindingState::kFixable ? std::string(report::SeverityName(finding.severity)) + ": "
                                                       : "")
           << "[" << finding.rule_id << "] " << finding.message << "\n";
    if (!finding.fix.empty()) listed << "      " << fix_label << finding.fix << "\n";
  }
  out << heading << (count == 0 ? "none" : Count(count, "finding")) << "\n" << listed.str();
}

void RenderFindings(const std::vector<Finding>& findings, report::FixStage stage, std::ostream& out) {
  const report::FindingCounts counts = report::CountFindings(findings, stage);
  // Before any translation (`migrate-cli analyze`) what the translation will fix is listed, and is not left.
  if (stage == report::FixStage::kTranslated || counts.fixed > 0) {
    RenderFindingsIn(findings, stage, report::FindingState::kFixed, "Fixed automatically: ", "fixed: ", out);
  }
  if (stage == report::FixStage::kBeforeTranslation) {
    RenderFindingsIn(findings, stage, report::FindingState::kFixable,
                     "Fixable automatically (migrate-cli translate applies the fix): ", "fix: ", out);
  }
  if (counts.inactive > 0) {
    out << "In code the build does not compile (not charged): " << Count(counts.inactive, "finding") << "\n";
    for (const Finding& finding : findings) {
      if (finding.inactive && !finding.auto_fixed) {
        out << "  " << Location(finding) << ": [" << finding.rule_id << "] " << finding.message << "\n";
      }
    }
  }
  out << "Left for a person: ";
  if (counts.left() == 0) {
    out << "none\n";
    return;
  }
  out << Count(counts.left_errors, "error") << ", " << Count(counts.left_warnings, "warning") << ", "
      << Count(counts.left_notes, "note") << "\n";
  for (const Finding& finding : findings) {
    if (report::StateOf(finding, stage) != report::FindingState::kLeft) continue;
    out << "  " << Location(finding) << ": " << report::SeverityName(finding.severity) << ": [" << finding.rule_id
        << "] " << finding.message << "\n";
    if (!finding.fix.empty() && finding.fix != finding.message) {
      out << "      " << (finding.fixable ? "automatic fix available: " : "to do: ") << finding.fix << "\n";
    }
  }
}

void RenderEffort(const report::EffortSection& effort, std::ostream& out) {
  char share[64];
  std::snprintf(share, sizeof share, "%.0f%%", effort.automatic_share * 100.0);
  if (effort.engineer_hours <= 0) {
    out << "Effort left: none (" << share << " of CUDA references handled automatically)\n";
    return;
  }
  out << "Effort left: " << HoursLeft(effort.engineer_hours) << " for one engineer (" << share
      << " of CUDA references handled automatically)";
  if (!effort.model.empty()) out << "; model: " << effort.model;
  out << "\n";
  for (const report::EffortItem& item : effort.items) {
    out << "  " << item.count << " x " << item.what << " at " << Hours(item.hours_each) << " = " << Hours(item.hours)
        << "\n";
  }
}

void RenderBuilds(const std::vector<report::BuildResult>& builds, std::ostream& out) {
  if (builds.empty()) {
    out << "Builds: none\n";
    return;
  }
  out << "Builds:\n";
  for (const report::BuildResult& build : builds) {
    out << "  " << (build.requested_arch.empty() ? "?" : build.requested_arch);
    if (build.arch != build.requested_arch) out << " (built as " << build.arch << ")";
    out << ": " << (build.ok ? "ok" : "FAILED") << " in " << Seconds(build.duration_ms);
    if (!build.toolchain.empty()) out << " with " << build.toolchain;
    out << "\n";
    if (!build.note.empty()) out << "      note: " << build.note << "\n";
    for (const report::BuildError& error : build.errors) {
      // A step's failure has no source position: no ":0:" in front of it.
      out << "      ";
      if (!error.path.empty()) out << error.path << (error.line > 0 ? ":" + std::to_string(error.line) : "") << ": ";
      out << error.message << "\n";
    }
    if (!build.log_excerpt.empty()) {
      // The failing step's own words: the only explanation when no error could be parsed.
      out << "      build log excerpt:\n";
      std::istringstream lines(build.log_excerpt);
      for (std::string line; std::getline(lines, line);) out << "        | " << line << "\n";
    }
    for (const report::KernelResources& kernel : build.kernels) {
      out << "      kernel " << kernel.name << ": " << kernel.vgprs << " VGPRs, " << kernel.sgprs
          << " SGPRs, occupancy " << kernel.occupancy << ", " << kernel.lds_bytes << " B LDS, " << kernel.scratch_bytes
          << " B scratch";
      if (kernel.spills > 0) out << ", " << kernel.spills << " spills";
      out << "\n";
    }
  }
}

void RenderTests(const std::vector<report::TestResult>& tests, std::ostream& out) {
  out << "Tests:" << (tests.empty() ? " none" : "") << "\n";
  for (const report::TestResult& test : tests) {
    out << "  " << test.name;
    if (!test.arch.empty()) out << " [" << test.arch << "]";
    out << ": " << report::TestStatusName(test.status);
    if (test.status != report::TestStatus::kNotRun) out << " in " << Seconds(test.duration_ms);
    if (test.cuda) {
      out << "; CUDA original: " << report::TestStatusName(test.cuda->status);
      if (test.cuda->status != report::TestStatus::kNotRun) out << " in " << Seconds(test.cuda->duration_ms);
      if (report::FailsInCudaToo(test) && test.status != report::TestStatus::kPassed)
        out << " (not a migration failure)";
    }
    out << "\n";
  }
}

void RenderParity(const std::vector<report::ParityResult>& parity, std::ostream& out) {
  out << "Parity (CUDA vs HIP):" << (parity.empty() ? " none" : "") << "\n";
  for (const report::ParityResult& item : parity) {
    out << "  " << item.case_name << ": " << report::ParityVerdictName(item.verdict);
    if (item.verdict != report::ParityVerdict::kMissing) {
      out << " (max abs error " << item.max_abs_error << ", max rel error " << item.max_rel_error << ", "
          << item.mismatches << " mismatches)";
    }
    if (!item.detail.empty()) out << ": " << item.detail;
    out << "\n";
  }
}

void RenderProfile(const std::vector<report::KernelProfile>& profile, std::ostream& out) {
  out << "Profile:" << (profile.empty() ? " none" : "") << "\n";
  for (const report::KernelProfile& item : profile) {
    out << "  " << item.kernel << ": " << item.calls << " calls, " << item.total_ns << " ns";
    if (item.cuda_baseline_ns.value_or(0) > 0) {
      out << " (CUDA " << (item.cuda_calls ? std::to_string(*item.cuda_calls) + " calls, " : std::string())
          << *item.cuda_baseline_ns << " ns";
      if (std::optional<double> ratio = report::HipCudaRatio(item)) {
        out << "; HIP/CUDA " << absl::StrFormat("%.2f", *ratio);
      }
      out << ")";
    }
    out << "\n";
  }
}

void RenderGpu(const report::GpuSection& gpu, std::ostream& out) {
  // The validator's note is a whole sentence ("not run on a GPU: compile-only worker", "ran on MI250 0000:03:00.0");
  // say it once, and compose one only when there is none.
  out << "GPU: ";
  if (!gpu.note.empty()) {
    out << gpu.note;
  } else if (gpu.ran_on_gpu) {
    out << "ran on " << (gpu.device_arch.empty() ? "a GPU" : gpu.device_arch);
    if (!gpu.device_key.empty()) out << " (" << gpu.device_key << ")";
  } else {
    out << "not run on a GPU";
  }
  out << "\n";
  if (!gpu.cuda_reference.empty()) out << "  CUDA reference: " << gpu.cuda_reference << "\n";
  for (const std::string& warning : gpu.warnings) out << "  warning: " << warning << "\n";
}

}  // namespace

std::string RenderText(const ReportDocument& document) {
  std::ostringstream out;
  const report::Report& r = document.report;
  if (!r.job_id.empty()) out << "Report for job " << r.job_id << "\n";
  // What the job proved, in every text report (stored by the validate role; translated only without it).
  out << "Verdict: " << report::VerdictSentence(VerdictOf(r)) << "\n";
  if (document.gate) out << "Gate: " << GateSentence(*document.gate) << "\n";
  if (r.translation) RenderTranslation(*r.translation, out);
  if (r.findings) RenderFindings(*r.findings, report::FixStageOf(r), out);
  if (r.effort) RenderEffort(*r.effort, out);
  if (r.builds) RenderBuilds(*r.builds, out);
  if (r.tests) RenderTests(*r.tests, out);
  if (r.parity) RenderParity(*r.parity, out);
  if (r.profile) RenderProfile(*r.profile, out);
  if (r.gpu) RenderGpu(*r.gpu, out);
  return out.str();
}

}  // namespace hipforge::report
