#include "worker/translate/analyze/analyzer.h"
#include "common/file_io.h"
#include "common/process.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <exception>
#include <fstream>
#include <iterator>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>

#include "common/pipeline.h"
#include "worker/translate/analyze/ast_runner.h"
#include "worker/translate/analyze/parse_cache.h"
#include "worker/translate/analyze/registry.h"
#include "worker/translate/analyze/token_file.h"
#include "worker/translate/environment_switch.h"
#include "worker/translate/frontend/compile_arguments.h"
#include "worker/translate/tables/mapping_index.h"

namespace hipforge::translate {
namespace {

using analyze::FileKind;
using analyze::TextFile;

bool SameFinding(const Finding& a, const Finding& b) {
  return a.rule_id == b.rule_id && a.location.path == b.location.path && a.location.line == b.location.line &&
         a.location.column == b.location.column;
}

// Same-place findings of one rule (a macro definition reached from several expansions: `#define WARP_SIZE 32` by a
// `/ 32` in one function and a `% 32` in another) are ordered by message, then fix, so that the one MergeFindings
// keeps is the smallest whatever order the units were parsed in and whichever of them were parsed.
bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.location.path, a.location.line, a.location.column, a.rule_id, a.message, a.fix) <
         std::tie(b.location.path, b.location.line, b.location.column, b.rule_id, b.message, b.fix);
}

std::string CommentPrefix(FileKind kind) { return analyze::IsSourceKind(kind) ? "// " : "# "; }

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

// Which side of a CUDA unit a parse compiles. The host side is the translator's (a shared parse can answer it); the
// device side sees the code under __CUDA_ARCH__ the host parse skips (DevicePass).
enum class Side { kHost, kDevice };

// The host-side arguments `args` as they are for `side`: --cuda-host-only becomes --cuda-device-only.
std::vector<std::string> ArgumentsFor(std::vector<std::string> args, Side side) {
  if (side == Side::kDevice) {
    const auto host_only = std::find(args.begin(), args.end(), "--cuda-host-only");
    if (host_only != args.end()) *host_only = "--cuda-device-only";
  }
  return args;
}

// One Analyze call, the state its stages share: the files it reads, what its parses are given, what they have found
// so far, and the result.
struct AnalysisRun {
  std::filesystem::path root;                        // canonical
  const std::vector<std::filesystem::path>& inputs;  // the files asked for, relative to root
  const ProgressCallback& progress;
  std::shared_ptr<const analyze::AstRulesCompanion> companion;  // a shared parse's host-side results, or null
  std::vector<std::unique_ptr<TextFile>> texts;                 // one per distinct input file, in input order
  std::map<std::string, size_t> index_by_path;                  // root-relative path -> index in texts
  std::vector<std::string> host_args;                           // Clang arguments without per-unit ones
  std::vector<std::string> readable_roots;
  std::optional<analyze::ParseCache> cache;

  std::vector<Finding> findings;                   // AST findings
  std::map<std::string, Ranges> skipped_by_file;   // per covered file: what no clean parse kept yet
  std::set<std::string> ast_covered;               // files some clean parse covered
  std::map<std::string, std::string> ast_failure;  // per unit that did not parse: its first error
  std::set<std::string> partial_ast;               // parsed with errors: AST findings kept, token rules on it all
  std::map<std::string, std::set<std::string>> covered_by_source;  // per cleanly parsed source: the files it covered
  std::vector<size_t> sources;  // HostPass: the sources it parsed, whose device side DevicePass parses
  std::unique_ptr<SharedPrefixes> device_prefixes;  // while DevicePass parses (AnalyzeOptions::device_prefixes)
  std::vector<Finding> token_findings;              // TokenPass
  AnalysisResult result;  // ReadFiles lists the files, TokenPass says how each was analysed, MergeFindings, Annotate
};

// A parse batch's place in the progress count: `total` 0 reports none.
struct ProgressCount {
  int done_before = 0;
  int total = 0;
};

class AnalyzerImpl final : public Analyzer {
 public:
  AnalyzerImpl(AnalyzeOptions options, CudaFrontend frontend, std::set<std::string> disabled)
      : options_(std::move(options)), frontend_(std::move(frontend)), disabled_(std::move(disabled)) {}

  std::unique_ptr<ParseCompanion> MakeParseCompanion(const std::filesystem::path& root) override {
    if (!options_.parse_sources) return nullptr;
    std::error_code error;
    auto companion =
        std::make_unique<analyze::AstRulesCompanion>(std::filesystem::weakly_canonical(root, error), disabled_);
    std::lock_guard lock(made_mutex_);
    std::erase_if(made_, [](const auto& entry) { return entry.second.expired(); });
    made_[companion.get()] = companion->Handle();
    return companion;
  }

  absl::StatusOr<AnalysisResult> Analyze(const std::filesystem::path& root,
                                         const std::vector<std::filesystem::path>& files,
                                         const ProgressCallback& progress, ParseCompanion* shared) override {
    std::error_code error;
    const auto canonical_root = std::filesystem::weakly_canonical(root, error);
    if (error || !std::filesystem::is_directory(canonical_root)) {
      return absl::InvalidArgumentError("analyze: not a directory: " + root.string());
    }
    AnalysisRun run{canonical_root, files, progress, MadeHere(shared)};
    if (absl::Status status = Stages().Run(run); !status.ok()) return status;
    return std::move(run.result);
  }

 private:
  // The companion `shared` is when this analyzer made it and it is alive; null for any other.
  std::shared_ptr<const analyze::AstRulesCompanion> MadeHere(const ParseCompanion* shared) {
    if (shared == nullptr) return nullptr;
    std::lock_guard lock(made_mutex_);
    const auto made = made_.find(shared);
    return made == made_.end() ? nullptr : made->second.lock();
  }

  // The stages in the order they run: 1. AST rules on sources, then on headers no parsed source covered (host
  // side); then the device side of their __CUDA_ARCH__ blocks. 2. Token rules on sources (whole file when the AST
  // did not cover it), line rules on the rest.
  Pipeline<AnalysisRun> Stages() {
    return Pipeline<AnalysisRun>("analyze", {{"ReadFiles", [this](AnalysisRun& run) { return ReadFiles(run); }},
                                             {"PrepareParses", [this](AnalysisRun& run) { return PrepareParses(run); }},
                                             {"HostPass", [this](AnalysisRun& run) { return HostPass(run); }},
                                             {"DevicePass", [this](AnalysisRun& run) { return DevicePass(run); }},
                                             {"TokenPass", [this](AnalysisRun& run) { return TokenPass(run); }},
                                             {"MergeFindings", [](AnalysisRun& run) { return MergeFindings(run); }},
                                             {"Annotate", [this](AnalysisRun& run) { return AnnotateFindings(run); }}});
  }

  absl::Status ReadFiles(AnalysisRun& run) const {
    AnalysisResult& result = run.result;
    for (const auto& file : run.inputs) {
      const std::string relative = file.lexically_normal().generic_string();
      if (run.index_by_path.count(relative)) continue;
      auto content = ReadFileBytes(run.root / file);
      if (!content) return absl::NotFoundError("analyze: cannot read " + (run.root / file).string());
      const FileKind kind = FileKindOf(file, *content);
      run.index_by_path[relative] = run.texts.size();
      run.texts.push_back(std::make_unique<TextFile>(relative, kind, std::move(*content)));
      result.files.push_back(AnalyzedFile{relative, analyze::FileKindName(kind), false, ""});
    }
    return absl::OkStatus();
  }

  // A job's own Clang arguments are data: allow-listed against the tree (the translator does the same).
  // Without per-unit arguments (options_.unit_arguments), the root is the include dir guessed.
  absl::Status PrepareParses(AnalysisRun& run) const {
    run.host_args = frontend_.ClangArgs();
    if (!frontend_.options().untrusted_args.empty()) {
      ArgumentCheck check = AllowListArguments(frontend_.options().untrusted_args, run.root, run.root);
      run.host_args.insert(run.host_args.end(), check.kept.begin(), check.kept.end());
    }
    if (!options_.unit_arguments) run.host_args.push_back("-I" + run.root.string());
    run.readable_roots = frontend_.ReadableRoots(run.root);
    if (options_.cache_directory) {
      run.cache.emplace(*options_.cache_directory, "analyzer-parse-1;" + analyze::AstRulesSalt(disabled_));
    }
    return absl::OkStatus();
  }

  // One unit's AST rules on `side`: the host side a shared parse saw (or its cache entry) is not parsed again.
  analyze::TranslationUnitResult ParseUnit(AnalysisRun& run, const TextFile& text, Side side) const {
    const auto path = run.root / text.path();
    if (run.companion && side == Side::kHost) {
      if (std::optional<analyze::TranslationUnitResult> shared = run.companion->Result(path)) return *shared;
    }
    const std::vector<std::string> args = UnitArguments(run, path, side);
    if (run.cache) {
      if (auto hit = run.cache->Lookup(text.path(), text.content(), args, run.root)) return *std::move(hit);
    }
    analyze::TranslationUnitResult parsed =
        side == Side::kDevice ? DeviceSideRules(run, args, path)
                              : analyze::RunAstRules(args, path, run.root, disabled_, run.readable_roots);
    if (run.cache) run.cache->Store(text.path(), text.content(), args, run.root, parsed);
    return parsed;
  }

  std::vector<std::string> UnitArguments(const AnalysisRun& run, const std::filesystem::path& path, Side side) const {
    return ArgumentsFor(options_.unit_arguments ? options_.unit_arguments(path) : run.host_args, side);
  }

  // A device-side parse with the prelude PCH for `args` when there is one (options_.device_prelude_pch), and the
  // include prefix the unit shares with others chained on it (run.device_prefixes); one that fails with a PCH is
  // parsed again without it, so a PCH never decides the result (the translator's rule).
  analyze::TranslationUnitResult DeviceSideRules(const AnalysisRun& run, const std::vector<std::string>& args,
                                                 const std::filesystem::path& path) const {
    if (std::optional<std::filesystem::path> pch =
            options_.device_prelude_pch ? options_.device_prelude_pch(args) : std::nullopt) {
      std::vector<std::string> with_pch = args;
      with_pch.insert(with_pch.end(), {"-include-pch", pch->string()});
      std::vector<std::string> readable_roots = run.readable_roots;
      if (!readable_roots.empty()) readable_roots.push_back(pch->parent_path().string());
      const auto recorder = [&] { return analyze::MakeAstRulesRecorder(run.root, disabled_); };
      if (std::optional<SharedPrefixes::Prefix> prefix =
              run.device_prefixes ? run.device_prefixes->For(path, with_pch, readable_roots, recorder) : std::nullopt) {
        std::vector<std::string> with_prefix = args;
        with_prefix.insert(with_prefix.end(), {"-include-pch", prefix->pch.string()});
        analyze::TranslationUnitResult parsed =
            analyze::RunAstRules(with_prefix, path, run.root, disabled_, readable_roots, &prefix->record);
        if (parsed.parsed) return parsed;
      }
      analyze::TranslationUnitResult parsed = analyze::RunAstRules(with_pch, path, run.root, disabled_, readable_roots);
      if (parsed.parsed) return parsed;
    }
    return analyze::RunAstRules(args, path, run.root, disabled_, run.readable_roots);
  }

  // Parses the units `batch` (indices into run.texts) on options_.jobs threads.
  std::vector<analyze::TranslationUnitResult> ParseUnits(AnalysisRun& run, const std::vector<size_t>& batch, Side side,
                                                         ProgressCount count) const {
    std::vector<analyze::TranslationUnitResult> results(batch.size());
    std::atomic<size_t> next{0};
    std::mutex progress_mutex;
    int done = count.done_before;
    auto worker = [&]() {
      for (size_t i = next++; i < batch.size(); i = next++) {
        const TextFile& text = *run.texts[batch[i]];
        results[i] = ParseUnit(run, text, side);
        std::lock_guard<std::mutex> lock(progress_mutex);
        ++done;
        if (run.progress && count.total > 0) run.progress(ProgressEvent{"analyze", done, count.total, text.path()});
      }
    };
    unsigned jobs = options_.jobs ? options_.jobs : UsableCpus();
    jobs = std::min<unsigned>(jobs, static_cast<unsigned>(std::max<size_t>(1, batch.size())));
    std::vector<std::thread> threads;
    for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
    // The progress callback may throw on this thread (the worker's task abandoned): the pool stops taking units
    // and is joined before the exception goes on (an unjoined std::thread ends the process).
    std::exception_ptr thrown;
    try {
      worker();
    } catch (...) {
      thrown = std::current_exception();
      next = batch.size();
    }
    for (auto& thread : threads) thread.join();
    if (thrown) std::rethrow_exception(thrown);
    return results;
  }

  // Host-side parses of `batch`: their findings and what each covered and skipped go into `run`.
  void ParseHostSide(AnalysisRun& run, const std::vector<size_t>& batch, ProgressCount count) const {
    std::vector<analyze::TranslationUnitResult> results = ParseUnits(run, batch, Side::kHost, count);
    for (size_t i = 0; i < batch.size(); ++i) {
      auto& tu = results[i];
      const std::string& path = run.texts[batch[i]]->path();
      if (!tu.parsed) {
        run.ast_failure[path] = tu.first_error;
        // Clang recovers well from ordinary errors (a CUDA 13 overload Clang 16 rejects): what did parse is
        // still a reliable AST. A fatal error (missing header) truncates it, so nothing of it is used.
        if (tu.fatal) continue;
        run.partial_ast.insert(path);
        run.findings.insert(run.findings.end(), std::make_move_iterator(tu.findings.begin()),
                            std::make_move_iterator(tu.findings.end()));
        continue;
      }
      run.findings.insert(run.findings.end(), std::make_move_iterator(tu.findings.begin()),
                          std::make_move_iterator(tu.findings.end()));
      for (const auto& covered : tu.covered_files) {
        if (run.ast_covered.insert(covered).second) run.skipped_by_file[covered] = tu.skipped_ranges[covered];
      }
      run.covered_by_source[path] = std::move(tu.covered_files);
      run.ast_covered.insert(path);
    }
  }

  // The host side of the sources worth a parse (run.sources), then of the headers none of them covered.
  absl::Status HostPass(AnalysisRun& run) const {
    std::vector<size_t>& sources = run.sources;
    std::vector<size_t> headers;
    for (size_t i = 0; i < run.texts.size(); ++i) {
      const TextFile& text = *run.texts[i];
      // A .cu file is CUDA by its name (nvcc compiles it as CUDA whatever it says): ggml's fattn.cu and its
      // template-instance units name no CUDA API themselves, yet instantiate the kernels of the headers they
      // include. Other sources are worth a parse when they hold GPU code.
      if (!options_.parse_sources) continue;
      if (text.kind() != FileKind::kCudaSource && !HasGpuCode(text.content())) continue;
      if (text.kind() == FileKind::kCudaSource || text.kind() == FileKind::kCppSource) sources.push_back(i);
      if (text.kind() == FileKind::kHeader) headers.push_back(i);
    }
    const int total_parses = static_cast<int>(sources.size() + headers.size());
    ParseHostSide(run, sources, {0, total_parses});
    int analysed = static_cast<int>(sources.size());
    std::vector<size_t> uncovered_headers;
    for (size_t i : headers) {
      if (!run.ast_covered.count(run.texts[i]->path())) {
        uncovered_headers.push_back(i);
      } else if (run.progress) {
        // Analysed within a source's parse: done now, so that the count reaches its total.
        run.progress(ProgressEvent{"analyze", ++analysed, total_parses, run.texts[i]->path()});
      }
    }
    ParseHostSide(run, uncovered_headers, {analysed, total_parses});
    return absl::OkStatus();
  }

  // Why a source file's AST rules did not run (AnalyzedFile::ast_skipped_reason).
  std::string AstSkippedReason(const AnalysisRun& run, const std::string& path) const {
    if (auto failure = run.ast_failure.find(path); failure != run.ast_failure.end()) {
      return run.partial_ast.count(path)
                 ? "AST rules ran only on what Clang could parse (token rules cover the whole file): " + failure->second
                 : "AST rules skipped, Clang could not parse the file: " + failure->second;
    }
    if (!options_.parse_sources) return "AST rules skipped: parsing disabled";
    return "AST rules skipped: no CUDA constructs";
  }

  // Token rules on sources (on the ranges no parse kept, the whole file when the AST did not cover it), line
  // rules on build files and scripts. Fills in how each file was analysed.
  absl::Status TokenPass(AnalysisRun& run) {
    AnalysisResult& result = run.result;
    std::vector<Finding>& token_findings = run.token_findings;
    for (size_t i = 0; i < run.texts.size(); ++i) {
      TextFile& text = *run.texts[i];
      AnalyzedFile& entry = result.files[i];
      if (!analyze::IsSourceKind(text.kind())) {
        entry.ast_skipped_reason = "not a C/C++/CUDA file: line rules only";
      } else if (run.ast_covered.count(text.path())) {
        entry.ast_analyzed = true;
        text.fallback_ranges = run.skipped_by_file[text.path()];
        entry.inactive_lines = InactiveLines(text);
      } else {
        entry.ast_skipped_reason = AstSkippedReason(run, text.path());
        text.fallback_ranges = {{0, static_cast<uint32_t>(text.content().size()) + 1}};
      }
      analyze::FindingSink sink(run.root);
      auto rules = analyze::MakeRules(sink, disabled_, &mappings_, options_.target_architectures);
      for (auto& rule : rules) {
        if (analyze::IsSourceKind(text.kind())) {
          rule->CheckTokens(text);
        } else if (text.kind() != FileKind::kOther) {
          rule->CheckLines(text);
        }
      }
      token_findings.insert(token_findings.end(), std::make_move_iterator(sink.findings().begin()),
                            std::make_move_iterator(sink.findings().end()));
    }
    return absl::OkStatus();
  }

  // The AST findings and the token findings that do not repeat one, sorted, each once.
  static absl::Status MergeFindings(AnalysisRun& run) {
    AnalysisResult& result = run.result;
    std::vector<Finding>& token_findings = run.token_findings;
    std::vector<Finding>& findings = run.findings;
    // A token-level duplicate of an AST finding (same rule and line: a partially parsed file, a block only the
    // device pass saw) is dropped.
    std::set<std::tuple<std::string, std::string, uint32_t>> ast_lines;
    for (const Finding& finding : findings) {
      ast_lines.emplace(finding.rule_id, finding.location.path, finding.location.line);
    }
    // Only token findings can lie in dropped code: the parses that produced the others kept it.
    MarkInactiveFindings(token_findings, result.files);
    for (Finding& finding : token_findings) {
      if (ast_lines.count({finding.rule_id, finding.location.path, finding.location.line})) continue;
      findings.push_back(std::move(finding));
    }
    std::sort(findings.begin(), findings.end(), FindingLess);
    findings.erase(std::unique(findings.begin(), findings.end(), SameFinding), findings.end());
    result.findings = std::move(findings);
    return absl::OkStatus();
  }

  // The lines strictly inside each range the parses skipped: a range starts at its opening directive (#if, #else)
  // and ends at the closing one, whose lines the preprocessor does read. Only ranges the program's own macros
  // decide (DecidedByTheProgram).
  static Ranges InactiveLines(const TextFile& text) {
    Ranges lines;
    for (const auto& [begin, end] : text.fallback_ranges) {
      const uint32_t opening = text.LineColumn(begin).first;
      const uint32_t first = opening + 1;
      const uint32_t last = text.LineColumn(end).first - 1;
      if (first <= last && DecidedByTheProgram(text, opening)) lines.emplace_back(first, last);
    }
    return lines;
  }

  // The directive name of a line ("if", "else", ...), empty for other lines.
  static std::string_view DirectiveName(std::string_view line) {
    size_t at = line.find_first_not_of(" \t");
    if (at == std::string_view::npos || line[at] != '#') return {};
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string_view::npos) return {};
    size_t end = at;
    while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) ++end;
    return line.substr(at, end - at);
  }

  // Whether the conditions that drop the branch opening at `line` (its own and those of the earlier branches of its
  // #if group) name only the program's macros (a define the build never sets, `#if 0`). Macros the compiler
  // predefines (__PTX__, __CUDA_ARCH__, __CUDACC_VER_MAJOR__) and CUDA's or HIP's version macros are set
  // differently by Clang's CUDA parse than by the HIP build (Clang defines __PTX__ even on the host side): a branch
  // they drop may be the one the HIP build compiles, so it is not called inactive.
  static bool DecidedByTheProgram(const TextFile& text, uint32_t line) {
    std::string conditions;
    int depth = 0;
    for (uint32_t at = line; at >= 1; --at) {
      const std::string_view directive = DirectiveName(text.Line(at));
      if (directive == "endif" && at != line) {
        ++depth;
      } else if (directive == "if" || directive == "ifdef" || directive == "ifndef" ||
                 directive.rfind("elif", 0) == 0 || directive == "else") {
        const bool opens = directive.rfind("if", 0) == 0;
        if (opens && depth > 0) {
          --depth;
        } else if (depth == 0) {
          for (uint32_t next = at; next <= text.LineCount(); ++next) {  // the directive with its continuations
            const std::string_view part = text.Line(next);
            conditions.append(part.substr(0, std::min(part.find("//"), part.find("/*")))).push_back(' ');
            if (part.empty() || part.back() != '\\') break;
          }
          if (opens) break;
        }
      }
    }
    static const std::regex kIdentifier(R"([A-Za-z_][A-Za-z0-9_]*)");
    static const std::regex kCompilerOrVersion(R"(^_|CUDA|NVCC|HIP|ROCM)");
    for (auto it = std::sregex_iterator(conditions.begin(), conditions.end(), kIdentifier);
         it != std::sregex_iterator(); ++it) {
      const std::string name = it->str();
      if (name == "if" || name == "ifdef" || name == "ifndef" || name.rfind("elif", 0) == 0 || name == "else" ||
          name == "defined") {
        continue;
      }
      if (std::regex_search(name, kCompilerOrVersion)) return false;
    }
    return true;
  }

  static bool InRanges(const Ranges& ranges, uint32_t offset) {
    return std::any_of(ranges.begin(), ranges.end(),
                       [&](const auto& range) { return offset >= range.first && offset <= range.second; });
  }

  // Parts of `a` that are also in `b`.
  static Ranges Intersect(const Ranges& a, const Ranges& b) {
    Ranges both;
    for (const auto& x : a) {
      for (const auto& y : b) {
        const uint32_t begin = std::max(x.first, y.first), end = std::min(x.second, y.second);
        if (begin < end) both.emplace_back(begin, end);
      }
    }
    return both;
  }

  // A file whose host parse skipped a block that may be device code: it has skipped ranges and names __CUDA_ARCH__.
  static bool Gated(const AnalysisRun& run, const std::string& path) {
    const auto index = run.index_by_path.find(path);
    const auto skipped = run.skipped_by_file.find(path);
    return index != run.index_by_path.end() && skipped != run.skipped_by_file.end() && !skipped->second.empty() &&
           run.texts[index->second]->content().find("__CUDA_ARCH__") != std::string::npos;
  }

  // The gated files among source `i` and those its host parse covered.
  static std::vector<std::string> GatedFiles(const AnalysisRun& run, size_t i, const std::set<std::string>& covered) {
    std::vector<std::string> files;
    if (Gated(run, run.texts[i]->path())) files.push_back(run.texts[i]->path());
    std::copy_if(covered.begin(), covered.end(), std::back_inserter(files),
                 [&](const std::string& path) { return Gated(run, path); });
    return files;
  }

  // Whether the host parse of `path` skipped some of it (an #if on __CUDA_ARCH__, or on a macro a header derives
  // from it, as ggml's common.cuh defines TURING_MMA_AVAILABLE): code the device side may keep.
  static bool HostSkipped(const AnalysisRun& run, const std::string& path) {
    const auto skipped = run.skipped_by_file.find(path);
    return skipped != run.skipped_by_file.end() && !skipped->second.empty();
  }

  // Whether source `i` (covering `covered` on the host side) reaches host-skipped code of a file no earlier unit of
  // the device batch reached (`reached`, updated).
  static bool ReachesNewSkippedCode(const AnalysisRun& run, size_t i, const std::set<std::string>& covered,
                                    std::set<std::string>& reached) {
    bool added = HostSkipped(run, run.texts[i]->path()) && reached.insert(run.texts[i]->path()).second;
    for (const std::string& file : covered) added |= HostSkipped(run, file) && reached.insert(file).second;
    return added;
  }

  // The sources to parse on the device side. A unit with GPU code of its own that reaches a gated file is parsed
  // when it reaches host-skipped code no earlier unit of the batch did (skip_repeated_device_parses; else always),
  // so each file's first device-side parse, which narrows its token rules' ranges, stays the one it was. A unit
  // without any (ggml's 120 template-instance units: an include and a macro call) only reaches headers' gated
  // blocks, so it is parsed only for a gated file no other device-side parse covers: on ggml its device-side parses
  // cost 263 s of CPU and found nothing the others did not.
  std::vector<size_t> DeviceBatch(const AnalysisRun& run, const std::vector<size_t>& sources) const {
    std::vector<size_t> batch, without_gpu_code;
    std::set<std::string> device_covered, reached;
    for (size_t i : sources) {
      const auto covered = run.covered_by_source.find(run.texts[i]->path());
      if (covered == run.covered_by_source.end()) continue;  // not parsed cleanly on the host side
      const auto files = GatedFiles(run, i, covered->second);
      if (files.empty()) continue;
      if (!HasGpuCode(run.texts[i]->content())) {
        without_gpu_code.push_back(i);
        continue;
      }
      if (options_.skip_repeated_device_parses && !ReachesNewSkippedCode(run, i, covered->second, reached)) continue;
      batch.push_back(i);
      device_covered.insert(files.begin(), files.end());
    }
    for (size_t i : without_gpu_code) {
      const auto files = GatedFiles(run, i, run.covered_by_source.at(run.texts[i]->path()));
      if (std::all_of(files.begin(), files.end(),
                      [&](const std::string& file) { return device_covered.count(file); })) {
        continue;
      }
      batch.push_back(i);
      device_covered.insert(files.begin(), files.end());
    }
    return batch;
  }

  // Device code under `#if __CUDA_ARCH__` / `#ifdef __CUDA_ARCH__` is skipped by the host parse. A second,
  // device-side parse of the sources that use the macro lets the AST rules see it: only its findings inside
  // host-skipped ranges are kept (the rest repeats the host pass), and the token rules are left only the blocks
  // both passes skipped.
  absl::Status DevicePass(AnalysisRun& run) const {
    const std::vector<size_t>& sources = run.sources;
    // Only a front end that parses the host side alone has a device side left to see.
    if (std::find(run.host_args.begin(), run.host_args.end(), "--cuda-host-only") == run.host_args.end()) {
      return absl::OkStatus();
    }
    const std::vector<size_t> batch = DeviceBatch(run, sources);
    if (batch.empty()) return absl::OkStatus();
    if (options_.device_prefixes && (run.device_prefixes = options_.device_prefixes(run.root))) {
      for (size_t i : batch) {
        const std::filesystem::path path = run.root / run.texts[i]->path();
        run.device_prefixes->Count(path, UnitArguments(run, path, Side::kDevice));
      }
    }
    std::vector<analyze::TranslationUnitResult> parsed = ParseUnits(run, batch, Side::kDevice, {});
    run.device_prefixes.reset();  // the pass's prefix PCHs go with it
    std::set<std::string> narrowed;
    for (auto& tu : parsed) {
      if (tu.fatal) continue;
      for (Finding& finding : tu.findings) {
        const auto index = run.index_by_path.find(finding.location.path);
        const auto skipped = run.skipped_by_file.find(finding.location.path);
        if (index == run.index_by_path.end() || skipped == run.skipped_by_file.end()) continue;
        const TextFile& text = *run.texts[index->second];
        if (finding.location.line < 1 || finding.location.line > text.LineCount()) continue;
        const uint32_t offset = text.LineStart(finding.location.line) + finding.location.column - 1;
        if (InRanges(skipped->second, offset)) run.findings.push_back(std::move(finding));
      }
      if (!tu.parsed) continue;  // with errors, the token rules keep the skipped blocks
      for (const auto& covered : tu.covered_files) {
        auto skipped = run.skipped_by_file.find(covered);
        if (skipped == run.skipped_by_file.end() || !narrowed.insert(covered).second) continue;
        skipped->second = Intersect(skipped->second, tu.skipped_ranges[covered]);
      }
    }
    return absl::OkStatus();
  }

  // With options_.annotate: the findings as comments (AnalysisResult::annotations).
  absl::Status AnnotateFindings(AnalysisRun& run) const {
    if (options_.annotate) {
      run.result.annotations = Annotate(run.root, run.result.findings, run.texts, run.index_by_path);
    }
    return absl::OkStatus();
  }

  // One comment insertion per annotated line, indented like the line it explains.
  static EditsByFile Annotate(const std::filesystem::path& root, const std::vector<Finding>& findings,
                              const std::vector<std::unique_ptr<TextFile>>& texts,
                              const std::map<std::string, size_t>& index_by_path) {
    std::map<std::string, std::unique_ptr<TextFile>> extra;  // headers reached through includes
    std::map<std::pair<std::string, uint32_t>, std::string> comments;
    std::map<std::string, const TextFile*> file_of;
    for (const Finding& finding : findings) {
      const TextFile* text = nullptr;
      if (auto it = index_by_path.find(finding.location.path); it != index_by_path.end()) {
        text = texts[it->second].get();
      } else {
        auto& slot = extra[finding.location.path];
        if (!slot) {
          auto content = ReadFileBytes(root / finding.location.path);
          if (!content) continue;
          slot =
              std::make_unique<TextFile>(finding.location.path, FileKindOf(finding.location.path, *content), *content);
        }
        text = slot.get();
      }
      file_of[finding.location.path] = text;
      const std::string_view line = text->Line(finding.location.line);
      const std::string indent(
          line.substr(0, line.find_first_not_of(" \t") == std::string_view::npos ? 0 : line.find_first_not_of(" \t")));
      comments[{finding.location.path, finding.location.line}] +=
          indent + CommentPrefix(text->kind()) + "HIPFORGE " + finding.rule_id + ": " + finding.message + "\n";
    }
    EditsByFile edits;
    for (const auto& [key, comment] : comments) {
      const TextFile* text = file_of[key.first];
      edits[key.first].push_back(TextEdit{text->LineStart(key.second), 0, comment, "annotate"});
    }
    return edits;
  }

  AnalyzeOptions options_;
  CudaFrontend frontend_;
  std::set<std::string> disabled_;
  MappingIndex mappings_;  // read-only; HB304 looks up APIs the tables mark unsupported
  // The companions MakeParseCompanion made, by address, each expiring with its companion.
  std::mutex made_mutex_;
  std::map<const ParseCompanion*, std::weak_ptr<const analyze::AstRulesCompanion>> made_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Analyzer>> CreateAnalyzer(AnalyzeOptions options) {
  std::set<std::string> known;
  for (const auto& info : analyze::AllRuleInfos()) known.insert(info.id);
  std::set<std::string> disabled;
  for (const auto& id : options.disabled_rules) {
    if (!known.count(id)) return absl::InvalidArgumentError("analyze: unknown rule id " + id);
    disabled.insert(id);
  }
  if (options.frontend.shim_directory.empty()) {
    options.frontend.shim_directory = std::filesystem::temp_directory_path() / "hipforge-analyzer-shims";
  }
  absl::StatusOr<std::optional<bool>> repeated = EnvironmentSwitch(kSkipRepeatedDeviceParsesVariable);
  if (!repeated.ok()) return repeated.status();
  if (*repeated) options.skip_repeated_device_parses = options.skip_repeated_device_parses && **repeated;
  absl::StatusOr<std::optional<bool>> device_pch = EnvironmentSwitch(kDevicePreludePchVariable);
  if (!device_pch.ok()) return device_pch.status();
  if (*device_pch && !**device_pch) options.device_prelude_pch = nullptr;
  auto frontend = CudaFrontend::Create(options.frontend);
  if (!frontend.ok()) return frontend.status();
  return std::unique_ptr<Analyzer>(new AnalyzerImpl(std::move(options), std::move(*frontend), std::move(disabled)));
}

std::vector<RuleDescription> RuleCatalog() {
  std::vector<RuleDescription> catalog;
  for (const auto& info : analyze::AllRuleInfos()) {
    catalog.push_back(RuleDescription{info.id, info.severity, info.title, analyze::RuleClassName(info.rule_class),
                                      std::string("docs/rules/") + info.id + ".md"});
  }
  return catalog;
}

void MarkInactiveFindings(std::vector<Finding>& findings, const std::vector<AnalyzedFile>& files) {
  std::map<std::string_view, const AnalyzedFile*> by_path;
  for (const AnalyzedFile& file : files) {
    if (!file.inactive_lines.empty()) by_path.emplace(file.path, &file);
  }
  for (Finding& finding : findings) {
    const auto file = by_path.find(finding.location.path);
    if (file == by_path.end()) continue;
    for (const auto& [first, last] : file->second->inactive_lines) {
      if (finding.location.line >= first && finding.location.line <= last) finding.inactive = true;
    }
  }
}

EditsByFile CollectFixEdits(const AnalysisResult& result, bool with_annotations) {
  EditsByFile edits;
  for (const Finding& finding : result.findings) {
    auto& list = edits[finding.location.path];
    for (const TextEdit& edit : finding.edits) {
      // The same macro definition can be fixed through several findings; keep one, and never overlap.
      const bool clash = std::any_of(list.begin(), list.end(), [&](const TextEdit& other) {
        return edit.offset < other.offset + std::max<uint32_t>(other.length, 1) &&
               other.offset < edit.offset + std::max<uint32_t>(edit.length, 1);
      });
      if (!clash) list.push_back(edit);
    }
  }
  if (with_annotations) {
    for (const auto& [path, annotations] : result.annotations) {
      auto& list = edits[path];
      list.insert(list.end(), annotations.begin(), annotations.end());
    }
  }
  for (auto it = edits.begin(); it != edits.end();) {
    if (it->second.empty()) {
      it = edits.erase(it);
    } else {
      std::stable_sort(it->second.begin(), it->second.end(),
                       [](const TextEdit& a, const TextEdit& b) { return a.offset < b.offset; });
      ++it;
    }
  }
  return edits;
}

}  // namespace hipforge::translate
