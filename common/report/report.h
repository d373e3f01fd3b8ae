#pragma once
// The migration report as C++ types: one struct per section of the report JSON that docs/report.md describes
// and docs/report-schema.json checks. The translate worker fills translation/findings/effort, the validate
// worker builds/tests/parity/profile/gpu; the server stores, merges and summarizes it; the CLI renders it. All of
// them go through report_json.h (one serializer, one parser). Free of heavy includes on purpose.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hipforge::report {

// ---- translation -------------------------------------------------------------------------------------------

enum class FileStatus { kTranslated, kUnchanged, kFallback, kCopied, kFailed };
std::string_view FileStatusName(FileStatus status);  // "translated", "unchanged", "fallback", "copied", "failed"
std::optional<FileStatus> ParseFileStatus(std::string_view name);

// One argument of a translation unit's parse and where it came from ("compile_commands.json", "cmake", ...),
// or for a rejected one why it was never passed to Clang.
struct CompileArgument {
  std::string argument;
  std::string source;  // used: where it came from; rejected: the reason (JSON "reason")
};

// The compile arguments of one configuration a translation unit was parsed in ("host", "device", ...).
struct CompileConfiguration {
  std::string configuration;
  std::vector<CompileArgument> used;
  std::vector<CompileArgument> rejected;
};

struct FileEntry {
  std::string path;         // in the output tree, relative
  std::string source_path;  // in the input tree, relative (differs when renamed); empty: same as path
  std::string kind;         // FileKindName(FileKindOf(path)): "cuda-source", "header", "cpp-source", "cmake", ...
  // The repository pass treated it as CUDA code: a .cu/.cuh, or a C/C++ file that uses CUDA or that a CUDA file
  // includes. A .cpp or .h without CUDA keeps its kind (as the analyzer names it) and is copied as it is.
  bool translated_as_cuda = false;
  FileStatus status = FileStatus::kUnchanged;
  std::string fallback_reason;           // why the AST path was not used
  std::map<std::string, int> converted;  // API uses converted, by kind ("function", "type", ...)
  int unconverted = 0;                   // CUDA identifiers with no mapping
  int unsupported = 0;                   // mapped but missing in the target HIP
  int lines_changed = 0;
  std::vector<std::string> changed_by;       // tables, rule ids, "cmake", ...
  std::vector<std::string> left_for_person;  // manual steps in this file
  bool from_cache = false;
  std::vector<CompileConfiguration> compile_arguments;  // translation units: one per configuration parsed
  // A translation unit not parsed: the unit whose parse covered every header it includes (it holds only
  // #includes and declarations, nothing of its own to translate). Empty for a parsed unit and any other file.
  std::string covered_by;
};

// A report written before FileEntry::translated_as_cuda named a C/C++ file without CUDA "other": its source kinds
// were the CUDA ones. What the flag reads as when a stored report or an older worker's message lacks it.
bool TranslatedAsCudaBeforeTheFlag(std::string_view kind);
// True for the files the progress counters count: CUDA sources and headers the pass treated as CUDA.
bool IsCudaRelevant(const FileEntry& file);
// A CUDA-relevant file counts as translated when it went through the translator (AST or token fallback).
bool CountsAsTranslated(const FileEntry& file);

struct TranslationTotals {
  int files = 0, translated = 0, unchanged = 0, fallback = 0, copied = 0, failed = 0;
  int converted = 0, unconverted = 0, unsupported = 0, lines_changed = 0;
  // The job's progress counters (Job.files_total / files_translated): IsCudaRelevant / CountsAsTranslated.
  int cuda_files = 0, cuda_files_translated = 0;
  int cuda_files_unchanged = 0;  // of cuda_files, those that needed no change (not "untranslated")
};
// The one definition of every total, from the file entries.
TranslationTotals ComputeTotals(const std::vector<FileEntry>& files);
// The CUDA files in words: "2 translated, 2 needed no change (4 CUDA files)"; an unchanged header is not a file
// the translation missed.
std::string CudaFilesSummary(const TranslationTotals& totals);

struct TranslationSection {
  std::vector<FileEntry> files;
  TranslationTotals totals;        // ComputeTotals(files) when produced; read as stored
  std::vector<std::string> notes;  // pass-level notes
};

// ---- findings ----------------------------------------------------------------------------------------------

enum class Severity { kError, kWarning, kNote };
std::string_view SeverityName(Severity severity);  // "error", "warning", "note"
std::optional<Severity> ParseSeverity(std::string_view name);

struct Finding {
  std::string rule_id;  // HBxxx (analyzer) or TRxxx (translator)
  Severity severity = Severity::kWarning;
  std::string path;
  int line = 0, column = 0;  // 1-based; 0: unknown
  std::string message;
  std::string fix;          // what the automatic fix did, or the manual step
  bool auto_fixed = false;  // the fix was applied to the migrated tree
  bool fixable = false;     // an automatic fix exists (applied or not)
  std::string source_line;  // the CUDA source line the finding points at (input tree); empty: unknown
  bool inactive = false;    // in lines the build's preprocessing drops (#if branch not taken): listed, not left
};

// Findings split the way a person reads them: what was fixed for them, and what is left, by severity.
struct FindingCounts {
  int fixed = 0;
  int inactive = 0;  // open, but in code the build does not compile: not left for a person
  int fixable = 0;   // before the translation only: open, with an automatic fix the translation applies
  int left_errors = 0, left_warnings = 0, left_notes = 0;
  int left() const { return left_errors + left_warnings + left_notes; }
};
// Whether the findings are of a translated tree (the translation applied the automatic fixes it could; one it did
// not apply is left) or of the CUDA tree before any translation (`migrate-cli analyze`: an automatic fix is still
// to come, so its finding is `fixable`, not left for a person).
enum class FixStage { kTranslated, kBeforeTranslation };
// Where one finding counts: the one definition CountFindings sums and the per-finding outputs (JUnit) read.
enum class FindingState { kFixed, kInactive, kFixable, kLeft };
FindingState StateOf(const Finding& finding, FixStage stage = FixStage::kTranslated);
FindingCounts CountFindings(const std::vector<Finding>& findings, FixStage stage = FixStage::kTranslated);

// ---- effort ------------------------------------------------------------------------------------------------

// One line of the effort computation: `count` items at `hours_each` (hours = count * hours_each).
struct EffortItem {
  std::string what;  // e.g. "warning HB402 without an automatic fix"
  int count = 0;
  double hours_each = 0;
  double hours = 0;
};

struct FileEffort {
  std::string path;
  double engineer_hours = 0;
  std::map<std::string, int> by_severity;  // findings left in this file, by severity name
};

struct EffortSection {
  double engineer_hours = 0;               // work LEFT for a person: the sum of `items`
  double automatic_share = 1.0;            // share of CUDA references handled automatically
  std::map<std::string, int> by_severity;  // findings left, by severity name
  std::vector<FileEffort> files;
  std::vector<EffortItem> items;  // how engineer_hours is computed
  std::string model;              // where the model is documented ("docs/rules/effort-model.md")
};

// ---- validation --------------------------------------------------------------------------------------------

struct KernelResources {
  std::string name;
  int vgprs = 0;
  int sgprs = 0;
  int agprs = 0;
  int64_t scratch_bytes = 0;
  int occupancy = 0;  // waves per SIMD as the compiler reports it
  int spills = 0;     // SGPR + VGPR spill count
  int64_t lds_bytes = 0;
};

struct BuildError {
  std::string path;  // original CUDA path when it could be mapped, else the translated path
  int line = 0;
  std::string message;
};

struct BuildResult {
  std::string requested_arch;  // what the job asked for, e.g. gfx942
  std::string arch;            // what was actually built, e.g. gfx940 (nearest the toolchain has)
  std::string toolchain;       // the toolchain that built it, e.g. "hipcc 5.2.3 (Debian)"
  bool ok = false;
  int64_t duration_ms = 0;
  std::vector<BuildError> errors;
  std::vector<KernelResources> kernels;
  std::string note;         // e.g. "gfx942 not supported by toolchain; built gfx940"
  std::string log_excerpt;  // failed builds: the failing step's error lines
};

enum class TestStatus { kPassed, kFailed, kTimedOut, kNotRun };
std::string_view TestStatusName(TestStatus status);  // "passed", "failed", "timed_out", "not_run"
std::optional<TestStatus> ParseTestStatus(std::string_view name);

// The same test run on the submitted CUDA tree, built for the same GPU (the automatic CUDA reference of an
// NVIDIA validate pool, docs/validation.md): tells a migration regression from a test that fails in CUDA too.
struct ReferenceRun {
  TestStatus status = TestStatus::kNotRun;
  int64_t duration_ms = 0;
  std::string output_excerpt;
};

struct TestResult {
  std::string name;
  std::string arch;
  TestStatus status = TestStatus::kNotRun;
  int64_t duration_ms = 0;
  std::string output_excerpt;
  std::optional<ReferenceRun> cuda;  // JSON "cuda"; absent when no CUDA reference ran
};

// A test that failed or timed out with HIP; one that fails in its CUDA original too is not a migration failure
// (FailsInCudaToo), and the verdict lists it among what was not proved.
bool FailsInCudaToo(const TestResult& test);
bool IsMigrationFailure(const TestResult& test);

enum class ParityVerdict { kMatch, kMismatch, kMissing };
std::string_view ParityVerdictName(ParityVerdict verdict);  // "match", "mismatch", "missing"
std::optional<ParityVerdict> ParseParityVerdict(std::string_view name);

struct ParityResult {
  std::string case_name;  // JSON "case"
  ParityVerdict verdict = ParityVerdict::kMissing;
  double max_abs_error = 0.0;  // infinity (NaN against a number) is JSON null
  double max_rel_error = 0.0;
  int64_t mismatches = 0;
  int64_t elements = 0;
  std::string detail;  // why missing / first mismatch position
};

struct KernelProfile {
  std::string kernel;
  int64_t calls = 0;
  int64_t total_ns = 0;
  std::optional<int64_t> cuda_baseline_ns;  // the CUDA original's total for the same kernel (KernelMatchKey)
  std::optional<int64_t> cuda_calls;        // its launches: the ratio compares per-launch times when they differ
};
// HIP time / CUDA time of one kernel (per launch when both call counts are known); empty without a baseline.
std::optional<double> HipCudaRatio(const KernelProfile& kernel);

struct GpuSection {
  bool ran_on_gpu = false;
  std::string note;                   // a full sentence, e.g. "not run on a GPU: compile-only worker"
  std::string device_key;             // PCI BDF or unique id of the leased GPU
  std::string device_arch;            // gcnArchName of the leased GPU
  std::vector<std::string> warnings;  // e.g. HSA_OVERRIDE_GFX_VERSION refused
  // The automatic CUDA reference, a sentence: "the submitted CUDA tree built for sm_90 (12 s) and ran 3 tests:
  // 3 passed", or why there is none. Empty on AMD workers.
  std::string cuda_reference;
};

// ---- the verdict: what a job proved ----------------------------------------------------------------------

// A job's state says whether the pipeline ran; the verdict says what it proved (docs/report.md, "Verdict").
// translated_only: no build was asked for or made; builds: every requested target built, nothing ran (or no
// test exists); behaviour_checked: tests ran on a GPU and passed; failed: a build, test or parity case failed.
enum class VerdictLevel { kTranslatedOnly, kBuilds, kBehaviourChecked, kFailed };
std::string_view VerdictLevelName(VerdictLevel level);  // "translated_only", "builds", "behaviour_checked", "failed"
std::optional<VerdictLevel> ParseVerdictLevel(std::string_view name);

struct Verdict {
  VerdictLevel level = VerdictLevel::kTranslatedOnly;
  std::string platform;                 // where behaviour was checked: "HIP's NVIDIA platform (sm_90)", "AMD gfx942"
  std::string why;                      // failed: what failed
  std::vector<std::string> not_proved;  // what this job did not prove, each a short sentence
};

struct Report;
// The one definition every output uses (the validate worker stores it in the report's `verdict`).
Verdict DecideVerdict(const Report& report);
// Empty when every build the report lists succeeded (or there are none); otherwise what failed, as the verdict's
// `why` says it: "build failed for gfx90a, gfx942 (built as gfx940)".
std::string BuildFailureVerdict(const Report& report);
// "builds (tests not run: not run on a GPU: compile-only worker; parity: no case)" and the like.
std::string VerdictSentence(const Verdict& verdict);

// ---- the report --------------------------------------------------------------------------------------------

// Every section is optional: each worker role contributes its own, the store merges them per top-level
// section, and an absent section means "not produced" (a present empty one means "produced, nothing in it").
struct Report {
  std::string job_id;  // set by the server on read; empty for local reports
  std::optional<TranslationSection> translation;
  std::optional<std::vector<Finding>> findings;
  std::optional<EffortSection> effort;
  std::optional<std::vector<BuildResult>> builds;
  std::optional<std::vector<TestResult>> tests;
  std::optional<std::vector<ParityResult>> parity;
  std::optional<std::vector<KernelProfile>> profile;
  std::optional<GpuSection> gpu;
  std::optional<Verdict> verdict;  // written by the validate role (DecideVerdict); absent: translated only

  // Copies the sections present in `other` over this report's (what the store does with a role's report).
  void MergeSections(const Report& other);
  // A job with gfx and sm_ targets validates in one task per platform: when `stored` holds the other platform's
  // validation (its builds' targets and this report's share no platform), its builds, tests, parity, profile and
  // gpu section are added to this report's and the verdict is decided again over both. Otherwise nothing changes
  // (a single-platform job's report replaces the stored one, as before). True when it merged.
  bool AddOtherPlatform(const Report& stored);
};

// A report without a translation section (migrate-cli analyze) is of the tree before any translation.
FixStage FixStageOf(const Report& report);

// ---- validate hints ----------------------------------------------------------------------------------------

// What the translate step learned that the validate step needs, carried in the validate task's payload
// ("hints"). Decided by the translate worker (it knows its rules); the server only passes it on.
struct ValidateHints {
  bool managed_memory = false;  // the code uses managed memory: run tests with HSA_XNACK=1
};

}  // namespace hipforge::report
