#pragma once
// AMD-semantics analyzer: rules HBxxx over CUDA sources (AST) and build files/scripts (tokens/lines).
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/report/report.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/frontend/shared_prefixes.h"
#include "worker/translate/frontend/unit_parser.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct AnalyzeOptions {
  CudaFrontendOptions frontend;
  unsigned jobs = 0;  // 0: hardware concurrency
  // Emit `// HIPFORGE HBxxx: ...` comments above each finding (AnalysisResult::annotations). Off by default.
  bool annotate = false;
  // Rule ids to leave out (e.g. {"HB203"}); unknown ids are an error from CreateAnalyzer.
  std::vector<std::string> disabled_rules;
  // false: only the token/line rules run (no Clang parse); for quick scans.
  bool parse_sources = true;
  // GPUs the program will be built for; rules about one architecture (HB206: gfx94x) stay silent without it.
  std::vector<std::string> target_architectures = {"gfx90a", "gfx942"};
  // Full host-side Clang arguments for a file (absolute path), e.g. the translator's per-unit arguments from
  // the build (core/unit_arguments.h), so both parse with one set; unset: the front end's own plus the
  // allow-listed job arguments. The device-side pass swaps --cuda-host-only for --cuda-device-only in them.
  std::function<std::vector<std::string>(const std::filesystem::path& file)> unit_arguments;
  // The CUDA prelude PCH for a device-side parse's arguments (built when missing; the translator's, see
  // core/prelude_pch.h), or nullopt; unset: device-side parses use none. A parse with it that fails is done again
  // without, so the PCH never decides a result. $HIPFORGE_DEVICE_PRELUDE_PCH=0 turns it off.
  std::function<std::optional<std::filesystem::path>(const std::vector<std::string>& args)> device_prelude_pch;
  // Include prefixes the device-side parses of one Analyze call share (a PCH chained on the prelude PCH, the
  // translator's per-job prefix PCHs for this pass: core/prefix_pch.h), made per call; unset: none. A parse with one
  // that fails is done again without. $HIPFORGE_PREFIX_PCH=0 turns them off with the translator's.
  SharedPrefixesFactory device_prefixes;
  // Where the analyzer keeps its own parses (the device-side pass, headers no unit includes; analyze/parse_cache.h)
  // for an unchanged re-run; unset: not kept.
  std::optional<std::filesystem::path> cache_directory;
  // The device-side pass parses a unit with GPU code of its own only when it reaches host-skipped code (#if
  // branches) of a file no earlier unit of the pass reached; false: whenever it reaches a __CUDA_ARCH__ block.
  // $HIPFORGE_SKIP_REPEATED_DEVICE_PARSES=0 turns it off.
  bool skip_repeated_device_parses = true;
};

// The report's effort section (common/report/report.h): hours LEFT for a person, with the items they add up from.
using FileEffort = report::FileEffort;
using EffortEstimate = report::EffortSection;

// How one input file was analyzed.
struct AnalyzedFile {
  std::string path;  // relative to the analyzed root
  std::string kind;  // FileKindName: "cuda-source", "header", "cpp-source", "cmake", ... as the report names it
  bool ast_analyzed = false;       // AST rules ran on it (directly or as a header of a parsed source)
  std::string ast_skipped_reason;  // why not (first Clang error, "not a source file", ...); token rules still ran
  // Lines the build's preprocessing drops, as [first, last] pairs: inside #if branches that neither the host nor the
  // device parse (with the build's defines) kept, the directive lines themselves left out. Empty unless ast_analyzed.
  std::vector<std::pair<uint32_t, uint32_t>> inactive_lines;
};

struct AnalysisResult {
  std::vector<Finding> findings;  // locations in the ORIGINAL sources, sorted by path, line, column, rule
  std::vector<AnalyzedFile> files;
  EditsByFile annotations;  // only with AnalyzeOptions::annotate: comment insertions on the original files
};

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  // Analyzes `files` (relative to `root`): CUDA sources/headers with AST rules, build files and scripts with
  // line rules. Files that do not parse still get the token-level rules. `shared`: a companion from
  // MakeParseCompanion(root) that rode on another parse of the sources (SourceTranslator::Parse); the host-side
  // AST results of every unit it saw are taken from it instead of parsing the unit again.
  virtual absl::StatusOr<AnalysisResult> Analyze(const std::filesystem::path& root,
                                                 const std::vector<std::filesystem::path>& files,
                                                 const ProgressCallback& progress,
                                                 ParseCompanion* shared = nullptr) = 0;
  // The AST rules as a consumer of another component's parse of the sources under `root` (one parse per unit
  // and configuration for both; frontend/unit_parser.h). Null when this analyzer does not parse sources.
  virtual std::unique_ptr<ParseCompanion> MakeParseCompanion(const std::filesystem::path& root) = 0;
};

absl::StatusOr<std::unique_ptr<Analyzer>> CreateAnalyzer(AnalyzeOptions options);

// The rule catalog (for SARIF rule metadata, docs and the CLI's rule listing).
struct RuleDescription {
  std::string id;          // "HB101"
  Severity severity;       // default severity of its findings
  std::string title;       // one line
  std::string rule_class;  // "wavefront", "architecture", "library", "runtime", "build"
  std::string help_path;   // "docs/rules/HB101.md"
};
std::vector<RuleDescription> RuleCatalog();

// Every finding's automatic fix, grouped by file (the translator's `extra_edits`), plus the annotations when
// `with_annotations`. Findings without edits contribute nothing.
EditsByFile CollectFixEdits(const AnalysisResult& result, bool with_annotations);

// Marks the findings that lie in a file's inactive_lines (Finding::inactive): the analyzer's own, and the
// translator's diagnostics, which it reports for every #if branch.
void MarkInactiveFindings(std::vector<Finding>& findings, const std::vector<AnalyzedFile>& files);

// The documented effort model (docs/rules/effort-model.md), from findings and the translator's statistics:
// what is left for a person (findings fixed automatically cost nothing), itemised in `items`.
EffortEstimate EstimateEffort(const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations);

}  // namespace hipforge::translate
