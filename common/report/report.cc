#include "common/report/report.h"

#include <set>

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

bool TranslatedAsCudaBeforeTheFlag(std::string_view kind) {
  return kind == "cuda-source" || kind == "header" || kind == "cpp-source";
}

bool IsCudaRelevant(const FileEntry& file) {
  return file.translated_as_cuda && (file.kind == "cuda-source" || file.kind == "header");
}

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
      if (file.status == FileStatus::kUnchanged) ++t.cuda_files_unchanged;
    }
  }
  return t;
}

std::string CudaFilesSummary(const TranslationTotals& t) {
  std::string text = std::to_string(t.cuda_files_translated) + " translated";
  if (t.cuda_files_unchanged > 0) text += ", " + std::to_string(t.cuda_files_unchanged) + " needed no change";
  const int other = t.cuda_files - t.cuda_files_translated - t.cuda_files_unchanged;  // failed or copied
  if (other > 0) text += ", " + std::to_string(other) + " not translated";
  return text + " (" + std::to_string(t.cuda_files) + " CUDA files)";
}

FixStage FixStageOf(const Report& report) {
  return report.translation ? FixStage::kTranslated : FixStage::kBeforeTranslation;
}

FindingState StateOf(const Finding& finding, FixStage stage) {
  if (finding.auto_fixed) return FindingState::kFixed;
  if (finding.inactive) return FindingState::kInactive;
  if (finding.fixable && stage == FixStage::kBeforeTranslation) return FindingState::kFixable;
  return FindingState::kLeft;
}

FindingCounts CountFindings(const std::vector<Finding>& findings, FixStage stage) {
  FindingCounts counts;
  for (const Finding& finding : findings) {
    switch (StateOf(finding, stage)) {
      case FindingState::kFixed: ++counts.fixed; continue;
      case FindingState::kInactive: ++counts.inactive; continue;
      case FindingState::kFixable: ++counts.fixable; continue;
      case FindingState::kLeft: break;
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
  if (other.verdict) verdict = other.verdict;
}

std::string_view VerdictLevelName(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kTranslatedOnly: return "translated_only";
    case VerdictLevel::kBuilds: return "builds";
    case VerdictLevel::kBehaviourChecked: return "behaviour_checked";
    case VerdictLevel::kFailed: return "failed";
  }
  return "translated_only";
}

std::optional<VerdictLevel> ParseVerdictLevel(std::string_view name) {
  for (VerdictLevel level :
       {VerdictLevel::kTranslatedOnly, VerdictLevel::kBuilds, VerdictLevel::kBehaviourChecked, VerdictLevel::kFailed}) {
    if (VerdictLevelName(level) == name) return level;
  }
  return std::nullopt;
}

namespace {

std::string PlatformOf(const GpuSection& gpu) {
  if (gpu.device_arch.rfind("sm_", 0) == 0) return "HIP's NVIDIA platform (" + gpu.device_arch + ")";
  return gpu.device_arch.empty() ? std::string("a GPU") : "AMD " + gpu.device_arch;
}

}  // namespace

bool FailsInCudaToo(const TestResult& test) {
  return test.cuda && (test.cuda->status == TestStatus::kFailed || test.cuda->status == TestStatus::kTimedOut);
}

bool IsMigrationFailure(const TestResult& test) {
  return (test.status == TestStatus::kFailed || test.status == TestStatus::kTimedOut) && !FailsInCudaToo(test);
}

std::optional<double> HipCudaRatio(const KernelProfile& kernel) {
  if (!kernel.cuda_baseline_ns || *kernel.cuda_baseline_ns <= 0 || kernel.total_ns <= 0) return std::nullopt;
  double ratio = static_cast<double>(kernel.total_ns) / static_cast<double>(*kernel.cuda_baseline_ns);
  if (kernel.cuda_calls && *kernel.cuda_calls > 0 && kernel.calls > 0 && *kernel.cuda_calls != kernel.calls) {
    ratio *= static_cast<double>(*kernel.cuda_calls) / static_cast<double>(kernel.calls);
  }
  return ratio;
}

namespace {

// "nvidia" for sm_XX targets, "amd" for the rest; of a build its requested target.
std::string PlatformOfTarget(const std::string& target) { return target.rfind("sm_", 0) == 0 ? "nvidia" : "amd"; }

std::set<std::string> BuildPlatforms(const std::optional<std::vector<BuildResult>>& builds) {
  std::set<std::string> platforms;
  for (const BuildResult& b : builds.value_or(std::vector<BuildResult>{})) {
    platforms.insert(PlatformOfTarget(b.requested_arch.empty() ? b.arch : b.requested_arch));
  }
  return platforms;
}

// `first`'s entries, then `second`'s; absent when both are.
template <typename T>
std::optional<std::vector<T>> Concat(const std::optional<std::vector<T>>& first,
                                     const std::optional<std::vector<T>>& second) {
  if (!first && !second) return std::nullopt;
  std::vector<T> both = first.value_or(std::vector<T>{});
  if (second) both.insert(both.end(), second->begin(), second->end());
  return both;
}

}  // namespace

bool Report::AddOtherPlatform(const Report& stored) {
  const std::set<std::string> mine = BuildPlatforms(builds), theirs = BuildPlatforms(stored.builds);
  if (mine.empty() || theirs.empty()) return false;
  for (const std::string& platform : mine) {
    if (theirs.count(platform) != 0) return false;
  }
  // AMD's sections first, whichever task finished first: every output lists them in one order.
  const Report mine_copy = *this;
  const bool stored_first = *theirs.begin() < *mine.begin();
  const Report& first = stored_first ? stored : mine_copy;
  const Report& second = stored_first ? mine_copy : stored;
  builds = Concat(first.builds, second.builds);
  tests = Concat(first.tests, second.tests);
  parity = Concat(first.parity, second.parity);
  profile = Concat(first.profile, second.profile);
  if (first.gpu || second.gpu) {
    const GpuSection a = first.gpu.value_or(GpuSection{}), b = second.gpu.value_or(GpuSection{});
    // The platform that ran is the one the verdict names (its device); both notes are kept, AMD's first.
    GpuSection merged = !a.ran_on_gpu && b.ran_on_gpu ? b : a;
    merged.note = a.note.empty() ? b.note : b.note.empty() ? a.note : a.note + "; " + b.note;
    merged.ran_on_gpu = a.ran_on_gpu || b.ran_on_gpu;
    merged.warnings = a.warnings;
    merged.warnings.insert(merged.warnings.end(), b.warnings.begin(), b.warnings.end());
    merged.cuda_reference = a.cuda_reference.empty() ? b.cuda_reference : a.cuda_reference;
    gpu = std::move(merged);
  }
  verdict = DecideVerdict(*this);
  return true;
}

std::string BuildFailureVerdict(const Report& report) {
  std::string builds_failed;
  for (const BuildResult& build : report.builds.value_or(std::vector<BuildResult>{})) {
    if (build.ok) continue;
    const std::string requested = build.requested_arch.empty() ? build.arch : build.requested_arch;
    builds_failed += (builds_failed.empty() ? "" : ", ") + requested;
    if (!build.arch.empty() && build.arch != requested) builds_failed += " (built as " + build.arch + ")";
  }
  return builds_failed.empty() ? "" : "build failed for " + builds_failed;
}

Verdict DecideVerdict(const Report& report) {
  Verdict verdict;
  if (!report.builds || report.builds->empty()) {
    verdict.not_proved = {"no build was made (translation only)"};
    return verdict;
  }
  std::vector<std::string> failed;
  if (std::string builds_failed = BuildFailureVerdict(report); !builds_failed.empty()) {
    failed.push_back(std::move(builds_failed));
  }
  int passed = 0, not_run = 0, failed_tests = 0;
  std::string not_run_archs;  // where tests did not run although they ran elsewhere (a job of two platforms)
  std::string fail_in_cuda;   // failing with HIP and in the CUDA original: not the migration's fault, not proved
  for (const TestResult& test : report.tests.value_or(std::vector<TestResult>{})) {
    if (test.status == TestStatus::kPassed) ++passed;
    if (test.status == TestStatus::kNotRun) {
      ++not_run;
      if (!test.arch.empty() && not_run_archs.find(test.arch) == std::string::npos) {
        not_run_archs += (not_run_archs.empty() ? "" : ", ") + test.arch;
      }
    }
    if (IsMigrationFailure(test)) ++failed_tests;
    if (test.status != TestStatus::kPassed && FailsInCudaToo(test)) {
      fail_in_cuda += (fail_in_cuda.empty() ? "" : ", ") + test.name;
    }
  }
  if (failed_tests > 0) {
    failed.push_back(std::to_string(failed_tests) + (failed_tests == 1 ? " test failed" : " tests failed"));
  }
  int matched = 0;
  std::string mismatched;
  for (const ParityResult& parity : report.parity.value_or(std::vector<ParityResult>{})) {
    if (parity.verdict == ParityVerdict::kMismatch) mismatched += (mismatched.empty() ? "" : ", ") + parity.case_name;
    if (parity.verdict == ParityVerdict::kMatch) ++matched;
  }
  if (!mismatched.empty()) failed.push_back("parity mismatch in " + mismatched);
  if (!failed.empty()) {
    verdict.level = VerdictLevel::kFailed;
    for (size_t i = 0; i < failed.size(); ++i) verdict.why += (i ? "; " : "") + failed[i];
    return verdict;
  }
  const bool ran = report.gpu && report.gpu->ran_on_gpu;
  if (!fail_in_cuda.empty()) verdict.not_proved.push_back("tests failing in the CUDA original too: " + fail_in_cuda);
  if (ran && (passed > 0 || matched > 0)) {
    verdict.level = VerdictLevel::kBehaviourChecked;
    verdict.platform = PlatformOf(*report.gpu);
    if (not_run > 0) {
      verdict.not_proved.push_back("tests: " + std::to_string(not_run) + " not run" +
                                   (not_run_archs.empty() ? "" : " (" + not_run_archs + ")"));
    }
    if (matched == 0) verdict.not_proved.push_back("parity: no case compared HIP's outputs with CUDA's");
    if (report.gpu->device_arch.rfind("sm_", 0) == 0) {
      // A wave64 run (docs/wave64.md) checked the 64-wide wavefront, emulated; the hardware is still not AMD's.
      bool wave64 = false;
      for (const TestResult& test : report.tests.value_or(std::vector<TestResult>{})) {
        wave64 |= test.status == TestStatus::kPassed && test.arch.ends_with(":wave64");
      }
      verdict.not_proved.push_back(wave64 ? "AMD hardware: CDNA's 64-wide wavefront checked in wave64 mode on NVIDIA, "
                                            "not on an MI250/MI300"
                                          : "AMD hardware: warpSize is 32 on NVIDIA, 64 on CDNA (MI250/MI300)");
    }
    return verdict;
  }
  verdict.level = VerdictLevel::kBuilds;
  const std::string note = report.gpu && !report.gpu->note.empty() ? report.gpu->note : "no GPU run";
  if (not_run > 0) {
    verdict.not_proved.push_back("tests: " + std::to_string(not_run) + " not run (" + note + ")");
  } else if (!fail_in_cuda.empty()) {
    // Every test that ran failed in the CUDA original too: nothing passed that could prove behaviour.
  } else {
    verdict.not_proved.push_back("tests: none defined (hipforge.yaml tests, ctest, or a make test/check/run target)");
  }
  if (matched == 0) verdict.not_proved.push_back("parity: no case compared HIP's outputs with CUDA's");
  return verdict;
}

std::string VerdictSentence(const Verdict& verdict) {
  std::string text;
  switch (verdict.level) {
    case VerdictLevel::kTranslatedOnly: text = "translated only"; break;
    case VerdictLevel::kBuilds: text = "builds"; break;
    case VerdictLevel::kBehaviourChecked: text = "behaviour checked on " + verdict.platform; break;
    case VerdictLevel::kFailed: text = "failed: " + verdict.why; break;
  }
  if (!verdict.not_proved.empty()) {
    text += "; not proved: ";
    for (size_t i = 0; i < verdict.not_proved.size(); ++i) text += (i ? "; " : "") + verdict.not_proved[i];
  }
  return text;
}

}  // namespace hipforge::report
