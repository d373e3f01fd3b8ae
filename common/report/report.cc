#include "common/report/report.h"

#include <array>
#include <utility>

namespace hipforge::report {
namespace {

template <typename Enum, size_t N>
std::optional<Enum> ParseName(std::string_view name, const std::array<std::pair<Enum, std::string_view>, N>& names) {
  for (const auto& [value, text] : names) {
    if (text == name) return value;
  }
  return std::nullopt;
}

template <typename Enum, size_t N>
std::string_view NameOf(Enum value, const std::array<std::pair<Enum, std::string_view>, N>& names) {
  for (const auto& [candidate, text] : names) {
    if (candidate == value) return text;
  }
  return names[0].second;
}

constexpr std::array<std::pair<FileStatus, std::string_view>, 5> kFileStatuses = {{
    {FileStatus::kTranslated, "translated"},
    {FileStatus::kUnchanged, "unchanged"},
    {FileStatus::kFallback, "fallback"},
    {FileStatus::kCopied, "copied"},
    {FileStatus::kFailed, "failed"},
}};
constexpr std::array<std::pair<Severity, std::string_view>, 3> kSeverities = {{
    {Severity::kError, "error"},
    {Severity::kWarning, "warning"},
    {Severity::kNote, "note"},
}};
constexpr std::array<std::pair<TestStatus, std::string_view>, 4> kTestStatuses = {{
    {TestStatus::kPassed, "passed"},
    {TestStatus::kFailed, "failed"},
    {TestStatus::kTimedOut, "timed_out"},
    {TestStatus::kNotRun, "not_run"},
}};
constexpr std::array<std::pair<ParityVerdict, std::string_view>, 3> kVerdicts = {{
    {ParityVerdict::kMatch, "match"},
    {ParityVerdict::kMismatch, "mismatch"},
    {ParityVerdict::kMissing, "missing"},
}};

}  // namespace

std::string_view FileStatusName(FileStatus status) { return NameOf(status, kFileStatuses); }
std::optional<FileStatus> ParseFileStatus(std::string_view name) { return ParseName(name, kFileStatuses); }
std::string_view SeverityName(Severity severity) { return NameOf(severity, kSeverities); }
std::optional<Severity> ParseSeverity(std::string_view name) { return ParseName(name, kSeverities); }
std::string_view TestStatusName(TestStatus status) { return NameOf(status, kTestStatuses); }
std::optional<TestStatus> ParseTestStatus(std::string_view name) { return ParseName(name, kTestStatuses); }
std::string_view ParityVerdictName(ParityVerdict verdict) { return NameOf(verdict, kVerdicts); }
std::optional<ParityVerdict> ParseParityVerdict(std::string_view name) { return ParseName(name, kVerdicts); }

bool IsCudaRelevant(const FileEntry& file) { return file.kind == "cuda-source" || file.kind == "header"; }

bool CountsAsTranslated(const FileEntry& file) {
  return file.status == FileStatus::kTranslated || file.status == FileStatus::kFallback;
}

TranslationTotals ComputeTotals(const std::vector<FileEntry>& files) {
  TranslationTotals t;
  for (const FileEntry& file : files) {
    ++t.files;
    switch (file.status) {
      case FileStatus::kTranslated: ++t.translated; break;
      case FileStatus::kUnchanged: ++t.unchanged; break;
      case FileStatus::kFallback: ++t.fallback; break;
      case FileStatus::kCopied: ++t.copied; break;
      case FileStatus::kFailed: ++t.failed; break;
    }
    for (const auto& [kind, count] : file.converted) t.converted += count;
    t.unconverted += file.unconverted;
    t.unsupported += file.unsupported;
    t.lines_changed += file.lines_changed;
    if (IsCudaRelevant(file)) {
      ++t.cuda_files;
      if (CountsAsTranslated(file)) ++t.cuda_files_translated;
    }
  }
  return t;
}

FindingCounts CountFindings(const std::vector<Finding>& findings) {
  FindingCounts counts;
  for (const Finding& finding : findings) {
    if (finding.auto_fixed) {
      ++counts.fixed;
      continue;
    }
    switch (finding.severity) {
      case Severity::kError: ++counts.left_errors; break;
      case Severity::kWarning: ++counts.left_warnings; break;
      case Severity::kNote: ++counts.left_notes; break;
    }
  }
  return counts;
}

void Report::MergeSections(const Report& other) {
  if (!other.job_id.empty()) job_id = other.job_id;
  if (other.translation) translation = other.translation;
  if (other.findings) findings = other.findings;
  if (other.effort) effort = other.effort;
  if (other.builds) builds = other.builds;
  if (other.tests) tests = other.tests;
  if (other.parity) parity = other.parity;
  if (other.profile) profile = other.profile;
  if (other.gpu) gpu = other.gpu;
}

}  // namespace hipforge::report
