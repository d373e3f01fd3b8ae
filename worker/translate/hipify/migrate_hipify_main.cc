// migrate-hipify: a drop-in for hipify-clang's command line over hipforge's translator.
// Same option spellings and meanings (llvm::cl, like hipify-clang, so `-o=FILE`, `-roc` and `--roc` all
// parse the same way); Clang arguments after `--`. Unlike hipify-clang, a file that does not parse is still
// translated (token-level fallback) and written, though the exit status is 1 as hipify-clang's; the analyzer's
// findings (AMD semantics: wave64, lane masks, ...) are printed beside the translator's, as hipify-clang prints its
// own.
#include <chrono>
#include <fstream>
#include <iostream>

#include "clang/Basic/Version.h"
#include "common/file_io.h"
#include "common/report/report_json.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/pch_cache.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/core/translation_report.h"
#include "worker/translate/report_conversion.h"

namespace fs = std::filesystem;
namespace cl = llvm::cl;
using namespace hipforge::translate;

namespace {

std::optional<ApiVersion> ParseVersion(const std::string& text) {
  unsigned major = 0, minor = 0;
  char dot = 0;
  std::istringstream in(text);
  if (!(in >> major)) return std::nullopt;
  if (in >> dot && dot == '.') in >> minor;
  if (major == 0 || major > 255 || minor > 255) return std::nullopt;
  return ApiVersion{static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
}

fs::path CommonRoot(const std::vector<fs::path>& files) {
  fs::path root = files.front().parent_path();
  for (const auto& file : files) {
    while (!root.empty() && file.lexically_relative(root).native().rfind("..", 0) == 0) root = root.parent_path();
  }
  return root.empty() ? fs::path("/") : root;
}

// llvm::cl options at file scope, as in hipify-clang and every LLVM tool.
cl::OptionCategory category("migrate-hipify options (hipify-clang compatible)");
cl::list<std::string> sources(cl::Positional, cl::desc("<source files>"), cl::cat(category));
cl::opt<std::string> output_file("o", cl::desc("Output filename"), cl::value_desc("filename"), cl::cat(category));
cl::opt<std::string> output_dir("o-dir", cl::desc("Output directory"), cl::value_desc("directory"), cl::cat(category));
cl::opt<std::string> cuda_path("cuda-path", cl::desc("CUDA installation path"), cl::value_desc("directory"),
                               cl::cat(category));
cl::opt<std::string> resource_dir("clang-resource-directory", cl::desc("Clang resource directory"),
                                  cl::value_desc("directory"), cl::cat(category));
cl::opt<std::string> build_path("p", cl::desc("Build path (directory with compile_commands.json)"), cl::cat(category));
cl::list<std::string> include_dirs("I", cl::desc("Add directory to include search path"), cl::Prefix,
                                   cl::cat(category));
cl::list<std::string> defines("D", cl::desc("Define <macro> to <value> or 1"), cl::Prefix, cl::cat(category));
cl::opt<std::string> gpu_arch("cuda-gpu-arch", cl::desc("CUDA GPU architecture (e.g. sm_70)"), cl::cat(category));
cl::opt<bool> hip_launch("hip-kernel-execution-syntax", cl::desc("Emit hipLaunchKernelGGL instead of <<<>>>"),
                         cl::cat(category));
cl::opt<bool> cuda_launch("cuda-kernel-execution-syntax", cl::desc("Keep <<<>>> (the default)"), cl::cat(category));
cl::opt<bool> roc("roc", cl::desc("Translate to roc* libraries instead of hip* where possible"), cl::cat(category));
cl::opt<bool> miopen("miopen", cl::desc("Translate cuDNN to MIOpen"), cl::cat(category));
cl::opt<bool> hip_data_types("use-hip-data-types", cl::desc("Use hipDataType instead of library data types"),
                             cl::cat(category));
cl::opt<bool> experimental("experimental", cl::desc("Translate APIs that are experimental in HIP"), cl::cat(category));
cl::opt<bool> amap("amap", cl::desc("Translate as much as possible (also skipped #if branches)"), cl::cat(category));
cl::opt<bool> skip_excluded("skip-excluded-preprocessor-conditional-blocks",
                            cl::desc("Do not translate inactive #if branches"), cl::cat(category));
cl::opt<bool> default_preprocessor("default-preprocessor",
                                   cl::desc("Default preprocessor behaviour (same as skipping inactive branches)"),
                                   cl::cat(category));
cl::opt<bool> print_stats("print-stats", cl::desc("Print translation statistics"), cl::cat(category));
cl::opt<std::string> stats_json("o-stats-json", cl::desc("Write statistics and findings as JSON"),
                                cl::value_desc("filename"), cl::cat(category));
cl::opt<bool> print_stats_csv("print-stats-csv", cl::desc("Statistics as CSV: to --o-stats if given, else to stderr"),
                              cl::cat(category));
cl::opt<std::string> stats_csv("o-stats", cl::desc("Write the statistics as CSV to this file"),
                               cl::value_desc("filename"), cl::cat(category));
cl::opt<bool> inplace("inplace", cl::desc("Modify input files in place (the original kept as <file>.prehip)"),
                      cl::cat(category));
cl::opt<bool> no_output("no-output", cl::desc("Do not write output files"), cl::cat(category));
cl::opt<bool> examine("examine", cl::desc("Combine -no-output and -print-stats"), cl::cat(category));
cl::opt<bool> verbose("v", cl::desc("Show notes too"), cl::cat(category));
cl::opt<std::string> target_hip("target-hip-version", cl::desc("HIP/ROCm release to emit for (default 6.4)"),
                                cl::init("6.4"), cl::cat(category));
cl::opt<bool> installed_headers(
    "installed-header-layout",
    cl::desc("Library headers at the path ROCm installs them (hipblas/hipblas.h), not HIPIFY's (hipblas.h)"),
    cl::cat(category));
cl::opt<bool> hipblas_half("hipblas-hip-half",
                           cl::desc("Define HIPBLAS_USE_HIP_HALF before the hipBLAS include (cuBLAS takes __half)"),
                           cl::cat(category));
cl::opt<std::string> cache_dir("cache-dir", cl::desc("Content-hash cache directory"), cl::cat(category));
cl::opt<unsigned> jobs("j", cl::desc("Parallel translation jobs (0: all cores)"), cl::init(0), cl::cat(category));
cl::opt<bool> no_pch("no-pch", cl::desc("Do not precompile the CUDA prelude"), cl::cat(category));
cl::opt<std::string> pch_cache_size(
    "pch-cache-size",
    cl::desc("Size cap of the PCH cache, least recently used PCHs evicted past it (2G, 500M; 0: unbounded; "
             "default $HIPFORGE_PCH_CACHE_SIZE, else 2G)"),
    cl::cat(category));
cl::opt<bool> translate_headers("translate-headers",
                                cl::desc("Also write the project headers the sources include (to -o-dir)"),
                                cl::cat(category));
cl::opt<bool> no_analyze("no-analyze", cl::desc("Do not run the analyzer (its HBxxx warnings about AMD semantics)"),
                         cl::cat(category));

absl::StatusOr<TranslateOptions> OptionsFromCommandLine(const std::vector<std::string>& clang_args) {
  const auto target = ParseVersion(target_hip);
  if (!target)
    return absl::InvalidArgumentError("bad --target-hip-version '" + target_hip + "' (expected e.g. 5.2 or 6.4)");
  TranslateOptions options;
  if (!cuda_path.empty()) options.frontend.cuda_path = fs::path(cuda_path.getValue());
  if (!resource_dir.empty()) options.frontend.clang_resource_dir = fs::path(resource_dir.getValue());
  if (!gpu_arch.empty()) options.frontend.gpu_arch = gpu_arch;
  for (const auto& dir : include_dirs) options.frontend.include_dirs.push_back(fs::absolute(dir));
  for (const auto& define : defines) options.frontend.defines.push_back(define);
  options.frontend.extra_args = clang_args;
  options.target_hip_version = *target;
  options.hip_kernel_execution_syntax = hip_launch;
  options.roc = roc;
  options.miopen = miopen;
  options.use_hip_data_types = hip_data_types;
  options.experimental = experimental;
  options.installed_header_layout = installed_headers;  // HIPIFY's spelling unless asked
  options.hipblas_hip_half = hipblas_half;
  options.amap = amap;
  options.translate_inactive_branches = !skip_excluded && !default_preprocessor;
  options.default_preprocessor = default_preprocessor;
  options.guess_build_flags = false;  // hipify-clang semantics: the command line says what Clang sees
  options.find_compile_commands = false;
  options.use_prelude_pch = !no_pch;
  if (!pch_cache_size.empty()) {
    options.pch_cache_bytes = ParseByteSize(pch_cache_size.getValue());
    if (!options.pch_cache_bytes) {
      return absl::InvalidArgumentError("bad --pch-cache-size '" + pch_cache_size + "' (expected e.g. 2G, 500M, 0)");
    }
  }
  options.jobs = jobs;
  if (!cache_dir.empty()) options.cache_directory = fs::path(cache_dir.getValue());
  if (!build_path.empty()) {
    options.compilation_database = fs::path(build_path.getValue());
    options.trust_compilation_database = true;  // the local user's own build
  }
  return options;
}

absl::StatusOr<std::vector<fs::path>> InputFiles() {
  if (!output_file.empty() && sources.size() > 1) {
    return absl::InvalidArgumentError("conflict: -o and multiple source files are specified");
  }
  if (inplace && (!output_file.empty() || !output_dir.empty())) {
    return absl::InvalidArgumentError("conflict: -inplace with -o or -o-dir");
  }
  std::vector<fs::path> files;
  for (const auto& source : sources) {
    std::error_code error;
    const fs::path absolute = fs::weakly_canonical(fs::absolute(source), error);
    if (error || !fs::is_regular_file(absolute)) return absl::NotFoundError("cannot read " + source);
    files.push_back(absolute);
  }
  return files;
}

struct Outcome {
  std::vector<FileTranslation> files;
  std::vector<Finding> analyzer_findings;  // the analyzer's, over the same parse (empty with --no-analyze)
  double seconds = 0;
};

// The translator's parse feeds the analyzer's AST rules (one parse per unit, as in the repository pass); the
// output is the translator's alone (hipify-clang applies no fixes), the analyzer's findings are printed beside it.
absl::StatusOr<Outcome> TranslateAndAnalyze(const TranslateOptions& options, const fs::path& root,
                                            const std::vector<fs::path>& files) {
  const auto started = std::chrono::steady_clock::now();
  auto translator = CreateSourceTranslator(options);
  if (!translator.ok()) return translator.status();
  std::unique_ptr<Analyzer> analyzer;
  if (!no_analyze) {
    AnalyzeOptions analyze_options;
    analyze_options.frontend = options.frontend;
    if (auto lookup = MakeUnitArgumentLookup(options, root); lookup.ok()) analyze_options.unit_arguments = *lookup;
    auto created = CreateAnalyzer(std::move(analyze_options));
    if (!created.ok()) return created.status();
    analyzer = std::move(*created);
  }
  std::unique_ptr<ParseCompanion> companion = analyzer ? analyzer->MakeParseCompanion(root) : nullptr;
  auto parsed = (*translator)->Parse(root, files, companion.get(), nullptr);
  if (!parsed.ok()) return parsed.status();
  Outcome outcome;
  if (analyzer) {
    std::vector<fs::path> relative;
    for (const fs::path& file : files) relative.push_back(file.lexically_relative(root));
    auto analysis = analyzer->Analyze(root, relative, nullptr, companion.get());
    if (!analysis.ok()) return analysis.status();
    outcome.analyzer_findings = std::move(analysis->findings);
  }
  auto composed = (*translator)->Compose(*parsed, {}, nullptr);
  if (!composed.ok()) return composed.status();
  outcome.files = std::move(*composed);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return outcome;
}

void PrintFinding(const fs::path& root, const Finding& finding) {
  if (finding.severity == Severity::kNote && !verbose) return;
  std::cerr << (root / finding.location.path).string() << ":" << finding.location.line << ":" << finding.location.column
            << ": " << hipforge::report::SeverityName(finding.severity) << ": " << finding.message << " ["
            << finding.rule_id << "]\n";
}

fs::path Destination(const fs::path& input, const FileTranslation& file, bool requested) {
  if (inplace) return input;
  if (!output_file.empty() && requested) {
    return output_dir.empty() ? fs::path(output_file.getValue())
                              : fs::path(output_dir.getValue()) / output_file.getValue();
  }
  if (!output_dir.empty())
    return fs::path(output_dir.getValue()) / (requested ? input.filename().string() + ".hip" : file.path);
  return input.string() + ".hip";
}

// Writes one file's translation; false (after saying why) when it could not.
bool WriteOutput(const fs::path& input, const FileTranslation& file, bool requested) {
  if (inplace) {
    // hipify-clang's backup of the original beside it.
    std::error_code copy_error;
    fs::copy_file(input, input.string() + ".prehip", fs::copy_options::overwrite_existing, copy_error);
    if (copy_error) {
      std::cerr << "[migrate-hipify] error: cannot keep the original as " << input.string()
                << ".prehip: " << copy_error.message() << "\n";
      return false;
    }
  }
  const fs::path destination = Destination(input, file, requested);
  std::error_code error;
  if (destination.has_parent_path()) fs::create_directories(destination.parent_path(), error);
  if (!hipforge::WriteFileBytes(destination, file.output).ok()) {
    std::cerr << "[migrate-hipify] error: cannot write " << destination << "\n";
    return false;
  }
  return true;
}

bool WriteStatistics(const Outcome& outcome, const std::vector<FileTranslation>& reported) {
  bool ok = true;
  if (print_stats || examine) PrintStats(reported, outcome.seconds, std::cerr);
  if (!stats_csv.empty()) {
    std::ofstream csv(stats_csv.getValue(), std::ios::binary | std::ios::trunc);
    WriteStatsCsv(reported, outcome.seconds, csv);
    if (!csv) {
      std::cerr << "[migrate-hipify] error: cannot write " << stats_csv.getValue() << "\n";
      ok = false;
    }
  } else if (print_stats_csv) {
    WriteStatsCsv(reported, outcome.seconds, std::cerr);
  }
  if (!stats_json.empty()) {
    // The report's translation and findings sections (docs/report.md), through the typed report.
    hipforge::report::Report stats;
    stats.translation = ToTranslationSection(reported);
    stats.findings.emplace();
    for (const auto& file : reported) {
      for (const auto& finding : file.diagnostics) stats.findings->push_back(ToReportFinding(finding));
    }
    for (const auto& finding : outcome.analyzer_findings) stats.findings->push_back(ToReportFinding(finding));
    const std::string json = hipforge::report::ToJson(stats).dump(2) + "\n";
    if (!hipforge::WriteFileBytes(stats_json.getValue(), json).ok()) ok = false;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  // Everything after `--` goes to Clang untouched.
  std::vector<const char*> own_args;
  std::vector<std::string> clang_args;
  bool after_dash_dash = false;
  for (int i = 0; i < argc; ++i) {
    if (!after_dash_dash && i > 0 && std::string(argv[i]) == "--") {
      after_dash_dash = true;
    } else if (after_dash_dash) {
      clang_args.emplace_back(argv[i]);
    } else {
      own_args.push_back(argv[i]);
    }
  }
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](llvm::raw_ostream& out) {
    out << "migrate-hipify (hipforge) " << HIPFORGE_VERSION << ", hipify-clang compatible; Clang "
        << CLANG_VERSION_STRING << "\n";
  });
  if (!cl::ParseCommandLineOptions(static_cast<int>(own_args.size()), own_args.data(),
                                   "CUDA to HIP source translator (hipify-clang compatible)\n", &llvm::errs())) {
    return 1;
  }
  if (sources.empty()) return 0;
  absl::StatusOr<TranslateOptions> options = OptionsFromCommandLine(clang_args);
  absl::StatusOr<std::vector<fs::path>> files = options.ok() ? InputFiles() : options.status();
  absl::StatusOr<Outcome> outcome =
      files.ok() ? TranslateAndAnalyze(*options, CommonRoot(*files), *files) : files.status();
  if (!outcome.ok()) {
    std::cerr << "[migrate-hipify] error: " << outcome.status().message() << "\n";
    return 1;
  }
  const fs::path root = CommonRoot(*files);
  int status = 0;
  std::vector<FileTranslation> reported;
  for (const auto& file : outcome->files) {
    const fs::path input = root / file.path;
    const bool requested = std::find(files->begin(), files->end(), input) != files->end();
    if (!requested && !translate_headers) continue;
    reported.push_back(file);
    for (const auto& finding : file.diagnostics) PrintFinding(root, finding);
    if (file.status == FileStatus::kFallback && requested) {
      // hipify-clang stops on a file Clang cannot parse; the token-level translation is still written, but a
      // script must not take it for a checked one.
      std::cerr << "[migrate-hipify] error: " << input.string() << " did not parse (" << file.fallback_reason
                << "); written by the token-level fallback\n";
      status = 1;
    }
    if (file.status == FileStatus::kFailed) status = 1;
    if (no_output || examine || file.status == FileStatus::kFailed) continue;
    if (!WriteOutput(input, file, requested)) status = 1;
  }
  for (const Finding& finding : outcome->analyzer_findings) {
    const bool requested = std::find(files->begin(), files->end(), root / finding.location.path) != files->end();
    if (requested || translate_headers) PrintFinding(root, finding);
  }
  if (!WriteStatistics(*outcome, reported)) status = 1;
  return status;
}
