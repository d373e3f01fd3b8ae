#include "worker/translate/repo/repository_migrator.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>
#include <random>
#include <regex>
#include <sstream>

#include "worker/translate/repo/build_commands.h"
#include "worker/translate/repo/build_commands_cache.h"
#include "worker/translate/repo/cmake_rewriter.h"
#include "worker/translate/repo/file_classifier.h"
#include "worker/translate/repo/line_rewriters.h"
#include "worker/translate/repo/rewrite_cache.h"
#include "worker/translate/repo/text_edits.h"
#include "worker/translate/repo/unified_patch.h"

namespace hipforge::translate {
namespace fs = std::filesystem;
namespace {

absl::StatusOr<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read " + path.string());
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

absl::Status WriteFile(const fs::path& path, const std::string& content) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) return absl::InternalError("cannot write " + path.string());
  return absl::OkStatus();
}

bool IsTranslatableKind(RepoFileKind kind) {
  return kind == RepoFileKind::kCudaSource || kind == RepoFileKind::kHeader || kind == RepoFileKind::kCppSource;
}

// `#include "kernels.cu"` follows its file when .cu files are renamed to .hip.
std::string UpdateRenamedIncludes(const std::string& path, const std::string& content,
                                  const std::map<std::string, std::string>& renamed) {
  if (renamed.empty() || content.find(".cu\"") == std::string::npos) return content;
  static const std::regex kInclude(R"((#\s*include\s*")([^"]+\.cu)("))");
  std::string out;
  size_t last = 0;
  const fs::path dir = fs::path(path).parent_path();
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kInclude); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += content.substr(last, static_cast<size_t>(m.position(0)) - last);
    last = static_cast<size_t>(m.position(0) + m.length(0));
    std::string target = m[2].str();
    for (const fs::path& candidate : {dir / target, fs::path(target)}) {
      if (renamed.count(candidate.lexically_normal().generic_string())) {
        target = target.substr(0, target.size() - 3) + ".hip";
        break;
      }
    }
    out += m[1].str() + target + m[3].str();
  }
  return out + content.substr(last);
}

std::string Fingerprint(const MigrationOptions& options, const RewriteContext& context) {
  std::string text = "archs=";
  for (const auto& arch : options.hip_architectures) text += arch + ";";
  text += "|rename=" + std::to_string(options.rename_to_hip);
  text += "|cuda_sources=" + std::to_string(context.has_cuda_sources);
  text += "|hip=" + std::to_string(options.translate.target_hip_version.major) + "." +
          std::to_string(options.translate.target_hip_version.minor);
  text += "|libs=";
  for (const auto& lib : context.cmake_cuda_libraries) text += lib + ";";
  text += "|snippets=" + std::to_string(static_cast<bool>(context.translate_snippet));
  text += "|rdc=" + std::to_string(context.relocatable_device_code_needed);
  return text;
}

// A private temporary directory, removed with everything in it when the pass ends.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::mt19937_64 rng{std::random_device{}()};
    path_ = fs::temp_directory_path() / ("hipforge-build-" + std::to_string(rng()));
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string RelativeOf(const fs::path& path, const fs::path& root) {
  return path.lexically_relative(root).generic_string();
}

}  // namespace

TranslatorFactory DefaultTranslatorFactory() {
  return [](TranslateOptions options) { return CreateSourceTranslator(std::move(options)); };
}

AnalyzerFactory DefaultAnalyzerFactory() {
  return [](AnalyzeOptions options) { return CreateAnalyzer(std::move(options)); };
}

EffortEstimator DefaultEffortEstimator() {
  return [](const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations) {
    return EstimateEffort(findings, translations);
  };
}

absl::StatusOr<MigrationResult> RepositoryMigrator::Run(const fs::path& input_root, const fs::path& output_root,
                                                        const MigrationOptions& options,
                                                        const ProgressCallback& progress) {
  const auto report = [&](const std::string& stage, int done, int total, const std::string& message) {
    if (progress) progress({stage, done, total, message});
  };
  if (!fs::is_directory(input_root)) return absl::InvalidArgumentError("not a directory: " + input_root.string());
  const fs::path input = fs::weakly_canonical(input_root);
  const fs::path output = fs::weakly_canonical(output_root);
  const std::string input_text = input.generic_string() + "/";
  if ((output.generic_string() + "/").rfind(input_text, 0) == 0) {
    return absl::InvalidArgumentError("output " + output.string() + " is inside the input tree " + input.string());
  }
  if (fs::exists(output) && !fs::is_empty(output)) {
    return absl::FailedPreconditionError("output directory is not empty: " + output.string());
  }

  // 1. Collect and classify.
  std::map<std::string, std::string> contents;
  std::map<std::string, RepoFileKind> kinds;
  std::vector<std::string> symlinks;
  std::error_code walk_error;
  for (auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, walk_error);
       it != fs::recursive_directory_iterator(); it.increment(walk_error)) {
    if (walk_error) return absl::InternalError("walking " + input.string() + ": " + walk_error.message());
    const std::string relative = RelativeOf(it->path(), input);
    if (it->is_directory() && it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) {
      symlinks.push_back(relative);
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    absl::StatusOr<std::string> content = ReadFile(it->path());
    if (!content.ok()) return content.status();
    kinds[relative] = ClassifyFile(relative, *content);
    contents[relative] = std::move(*content);
  }
  PromoteIncludedHeaders(contents, kinds);
  report("classify", static_cast<int>(contents.size()), static_cast<int>(contents.size()), "");

  // PyTorch extensions stay CUDA: ROCm PyTorch hipifies them itself when it builds them.
  std::set<std::string> extension_sources;
  for (const auto& [path, kind] : kinds) {
    if (kind != RepoFileKind::kPython || fs::path(path).filename() != "setup.py") continue;
    for (const auto& source : CudaExtensionSources(contents[path])) {
      const std::string key = (fs::path(path).parent_path() / source).lexically_normal().generic_string();
      if (contents.count(key)) extension_sources.insert(key);
    }
  }

  RewriteContext context;
  context.options = &options;
  std::vector<fs::path> to_translate;
  std::vector<std::string> needs_translator;
  for (const auto& [path, kind] : kinds) {
    if (!IsTranslatableKind(kind) || extension_sources.count(path)) continue;
    // Already-HIP files (no CUDA references, HIP runtime included) need no translation; this also keeps the
    // pass idempotent over its own output.
    const bool uses_cuda = UsesCuda(contents[path]);
    static const std::regex kHipInclude(R"re(#\s*include\s*[<"]hip/hip_runtime(_api)?\.h[>"])re");
    if (uses_cuda || (kind == RepoFileKind::kCudaSource && !std::regex_search(contents[path], kHipInclude))) {
      to_translate.emplace_back(path);
    }
    if (uses_cuda) needs_translator.push_back(path);
    if (kind == RepoFileKind::kCudaSource) {
      context.has_cuda_sources = true;
      if (options.rename_to_hip && fs::path(path).extension() == ".cu") {
        context.renamed[path] = fs::path(path).replace_extension(".hip").generic_string();
      }
    }
  }
  for (const auto& [path, kind] : kinds) {
    if (kind != RepoFileKind::kCMake) continue;
    for (const auto& lib : CudaLibrariesInCMake(contents[path])) context.cmake_cuda_libraries.insert(lib);
  }
  context.relocatable_device_code_needed = false;
  for (const auto& [path, kind] : kinds) {
    if (IsTranslatableKind(kind) && DeclaresDeviceCodeDefinedElsewhere(contents[path])) {
      context.relocatable_device_code_needed = true;
      break;
    }
  }

  MigrationResult result;

  // 1b. Per-unit compile arguments from the project's own build when the tree has no compile database.
  TranslateOptions translate_options = options.translate;
  ScratchDirectory scratch;
  if (options.discover_build_commands && !translate_options.compilation_database && !needs_translator.empty() &&
      !fs::exists(input / "compile_commands.json") && !fs::exists(input / "build" / "compile_commands.json")) {
    report("build-commands", 0, 1, "");
    BuildDiscoveryOptions discovery_options;
    discovery_options.scratch = scratch.path();
    discovery_options.cmake_options = options.cmake_options;
    if (translate_options.frontend.cuda_path) discovery_options.cuda_path = *translate_options.frontend.cuda_path;
    const BuildDiscoveryCache discovery_cache(
        options.translate.cache_directory ? *options.translate.cache_directory / "build-commands" : fs::path());
    const std::string discovery_key = BuildDiscoveryKey(contents, kinds, discovery_options);
    std::optional<BuildDiscovery> cached_discovery = discovery_cache.Lookup(discovery_key, scratch.path());
    BuildDiscovery discovery = cached_discovery ? std::move(*cached_discovery)
                                                : DiscoverBuildCommands(launcher_, input, discovery_options);
    if (!cached_discovery) discovery_cache.Store(discovery_key, discovery);
    result.notes.insert(result.notes.end(), discovery.notes.begin(), discovery.notes.end());
    if (discovery.compile_commands) {
      translate_options.compilation_database = *discovery.compile_commands;
      translate_options.compilation_database_source =
          discovery.tool == "cmake" ? ArgumentSource::kCMake : ArgumentSource::kMakefile;
    }
    report("build-commands", 1, 1, discovery.tool);
  }

  // 2. One parse per translation unit and configuration (frontend/unit_parser.h): the translator's parse of
  // each unit also runs the analyzer's AST rules (its companion), with the translator's per-unit arguments;
  // the analyzer then parses only what the translator does not (device side, headers no unit includes).
  std::unique_ptr<SourceTranslator> translator;
  {
    absl::StatusOr<std::unique_ptr<SourceTranslator>> created = translator_factory_(translate_options);
    if (created.ok()) {
      translator = std::move(*created);
    } else if (!needs_translator.empty()) {
      return absl::FailedPreconditionError(std::to_string(needs_translator.size()) +
                                           " file(s) use CUDA (first: " + needs_translator.front() +
                                           ") but cannot be translated: " + std::string(created.status().message()));
    }
  }
  std::unique_ptr<Analyzer> analyzer;
  {
    AnalyzeOptions analyze_options = options.analyze;
    // One set of compile arguments: the analyzer parses with the translator's front end (job arguments and
    // confinement included).
    const fs::path analyzer_shims = analyze_options.frontend.shim_directory;
    analyze_options.frontend = translate_options.frontend;
    if (!analyzer_shims.empty()) analyze_options.frontend.shim_directory = analyzer_shims;
    if (auto lookup = MakeUnitArgumentLookup(translate_options, input); lookup.ok()) {
      analyze_options.unit_arguments = std::move(*lookup);
    }
    analyze_options.annotate = analyze_options.annotate || options.annotate;
    analyze_options.target_architectures = options.hip_architectures;  // HB206 needs to know about gfx94x
    absl::StatusOr<std::unique_ptr<Analyzer>> created = analyzer_factory_(analyze_options);
    if (created.ok()) {
      analyzer = std::move(*created);
    } else {
      result.notes.push_back("findings incomplete: " + std::string(created.status().message()));
    }
  }
  std::unique_ptr<ParseCompanion> companion = analyzer ? analyzer->MakeParseCompanion(input) : nullptr;
  std::optional<ParsedSources> parsed;
  if (translator && !to_translate.empty()) {
    absl::StatusOr<ParsedSources> parse = translator->Parse(input, to_translate, companion.get(), progress);
    if (!parse.ok()) return parse.status();
    parsed = std::move(*parse);
  }

  // 3. Analyze (findings in the original sources; their safe fixes go to the translator).
  std::vector<Finding> analyzer_findings;
  EditsByFile annotations;  // `// HIPFORGE HBxxx:` comments, only with options.annotate
  const bool have_analyzer = analyzer != nullptr;
  if (analyzer) {
    std::vector<fs::path> files;
    for (const auto& [path, kind] : kinds) {
      if (kind != RepoFileKind::kOther) files.emplace_back(path);
    }
    absl::StatusOr<AnalysisResult> analysis = analyzer->Analyze(input, files, progress, companion.get());
    if (!analysis.ok()) return analysis.status();
    analyzer_findings = std::move(analysis->findings);
    annotations = std::move(analysis->annotations);
  }

  // 4. Translate CUDA sources and the headers they include: the parsed facts plus the analyzer's fixes.
  std::map<std::string, FileTranslation> translations;
  if (parsed) {
    EditsByFile extra_edits;
    if (options.apply_fixes) {
      for (Finding& finding : analyzer_findings) {
        if (finding.edits.empty()) continue;
        const auto kind = kinds.find(finding.location.path);
        if (kind == kinds.end() || !IsTranslatableKind(kind->second) ||
            extension_sources.count(finding.location.path)) {
          continue;
        }
        auto& edits = extra_edits[finding.location.path];
        edits.insert(edits.end(), finding.edits.begin(), finding.edits.end());
        finding.auto_fixed = true;
      }
    }
    for (auto& [path, edits] : annotations) {
      const auto kind = kinds.find(path);
      if (kind == kinds.end() || !IsTranslatableKind(kind->second) || extension_sources.count(path)) continue;
      auto& target = extra_edits[path];
      target.insert(target.end(), edits.begin(), edits.end());
    }
    absl::StatusOr<std::vector<FileTranslation>> translated = translator->Compose(*parsed, extra_edits, progress);
    if (!translated.ok()) return translated.status();
    for (auto& translation : *translated) translations[translation.path] = std::move(translation);
  }
  if (translator) {
    // CuPy kernels: the string goes through the same translator as a one-file repository.
    SourceTranslator* raw_translator = translator.get();
    context.translate_snippet = [raw_translator](const std::string& source) -> std::optional<std::string> {
      std::mt19937_64 rng{std::random_device{}()};
      const fs::path dir = fs::temp_directory_path() / ("hipforge-snippet-" + std::to_string(rng()));
      if (!WriteFile(dir / "kernel.cu", source).ok()) return std::nullopt;
      auto translated = raw_translator->Translate(dir, {fs::path("kernel.cu")}, {}, nullptr);
      std::error_code ignored;
      fs::remove_all(dir, ignored);
      if (!translated.ok() || translated->empty() || translated->front().status == FileStatus::kFailed) {
        return std::nullopt;
      }
      // hipRTC needs no runtime include: drop the one the translator puts on top of a file (it would also
      // stack up when the pass runs over its own output).
      std::string output = translated->front().output;
      if (source.find("hip/hip_runtime.h") == std::string::npos) {
        // The warp-sync define the translator puts first stays (hipRTC of HIP 6.2+ needs it too), once.
        constexpr std::string_view kWarpSyncDefine = "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1";
        std::string kept;
        size_t body = 0;
        while (body < output.size()) {
          const size_t end = output.find('\n', body);
          const std::string line = output.substr(body, end == std::string::npos ? std::string::npos : end - body);
          if (line == kWarpSyncDefine) {
            if (kept.empty()) kept = line + "\n";
          } else if (!line.empty() && line != "#include <hip/hip_runtime.h>") {
            break;
          }
          if (end == std::string::npos) break;
          body = end + 1;
        }
        const size_t source_body = source.find_first_not_of("\n");
        output = source.substr(0, source_body == std::string::npos ? source.size() : source_body) + kept +
                 output.substr(body);
      }
      return output;
    };
  }

  // 5. Build files, scripts, containers, CI, Python.
  std::map<std::string, RewriteResult> rewrites;
  std::set<std::string> cached;
  {
    const RewriteCache cache(options.translate.cache_directory ? *options.translate.cache_directory / "repo-pass"
                                                               : fs::path());
    const std::string fingerprint = Fingerprint(options, context);
    int done = 0;
    // Progress says "k of n", n the files a rewriter takes.
    const int total = static_cast<int>(std::count_if(kinds.begin(), kinds.end(), [&](const auto& entry) {
      return rewriters_.Find(entry.second) != nullptr;
    }));
    for (const auto& [path, kind] : kinds) {
      const BuildFileRewriter* rewriter = rewriters_.Find(kind);
      if (rewriter == nullptr) continue;
      const std::string key = RewriteCache::Key(rewriter->name(), rewriter->version(), fingerprint, path, contents[path]);
      if (auto hit = cache.Lookup(key)) {
        rewrites[path] = std::move(*hit);
        cached.insert(path);
      } else {
        rewrites[path] = rewriter->Rewrite(path, contents[path], context);
        cache.Store(key, rewrites[path]);
      }
      report("build-files", ++done, total, path);
    }
  }

  // 6. Write the output tree and summarize each file.
  std::error_code error;
  fs::create_directories(output, error);
  if (error) return absl::InternalError("cannot create " + output.string() + ": " + error.message());
  int written = 0;
  for (const auto& [path, kind] : kinds) {
    const std::string& original = contents[path];
    FileSummary summary;
    summary.source_path = path;
    summary.path = context.renamed.count(path) ? context.renamed.at(path) : path;
    summary.kind = kind;
    std::string out = original;
    if (auto t = translations.find(path); t != translations.end()) {
      const FileTranslation& translation = t->second;
      out = translation.status == FileStatus::kFailed ? original : translation.output;
      summary.status = translation.status;
      summary.changed_by = translation.changed_by;
      summary.from_cache = translation.from_cache;
      for (const Finding& diagnostic : translation.diagnostics) {
        summary.left_for_person.push_back(diagnostic.rule_id + " line " + std::to_string(diagnostic.location.line) +
                                          ": " + diagnostic.message);
      }
      if (translation.status == FileStatus::kFailed) {
        summary.left_for_person.push_back("translation failed: " + translation.fallback_reason);
      }
    } else if (auto r = rewrites.find(path); r != rewrites.end()) {
      out = r->second.output;
      summary.changed_by = r->second.changed_by;
      summary.from_cache = cached.count(path) > 0;
      for (const RewriteNote& note : r->second.notes) {
        if (note.left_for_person) {
          summary.left_for_person.push_back(note.origin + " line " + std::to_string(note.line) + ": " + note.message);
        }
      }
    } else if (extension_sources.count(path)) {
      summary.left_for_person.push_back("PyTorch extension source kept as CUDA: ROCm PyTorch hipifies it at build time");
    }
    if (IsTranslatableKind(kind) || kind == RepoFileKind::kOther) {
      const std::string updated = UpdateRenamedIncludes(path, out, context.renamed);
      if (updated != out) summary.changed_by.insert("rename");
      out = updated;
    }
    if (summary.path != summary.source_path) summary.changed_by.insert("rename");
    summary.lines_changed = CountChangedLines(original, out);
    if (summary.status != FileStatus::kFallback && summary.status != FileStatus::kFailed) {
      if (out != original || summary.path != summary.source_path) {
        summary.status = FileStatus::kTranslated;
      } else {
        summary.status = kind == RepoFileKind::kOther ? FileStatus::kCopied : FileStatus::kUnchanged;
      }
    }
    if (absl::Status status = WriteFile(output / summary.path, out); !status.ok()) return status;
    fs::permissions(output / summary.path, fs::status(input / path).permissions(), error);
    result.files.push_back(std::move(summary));
    report("write", ++written, static_cast<int>(kinds.size()), path);
  }
  // Files the rewriters generate (the CMake HIP module), unless the repository already has them.
  for (const auto& [path, rewrite] : rewrites) {
    for (const auto& [generated, text] : rewrite.generated_files) {
      if (kinds.count(generated) || std::any_of(result.files.begin(), result.files.end(),
                                                [&](const FileSummary& f) { return f.path == generated; })) {
        continue;
      }
      if (absl::Status status = WriteFile(output / generated, text); !status.ok()) return status;
      result.files.push_back({.path = generated, .source_path = "", .kind = RepoFileKind::kCMake,
                              .status = FileStatus::kTranslated, .changed_by = {"HB502"},
                              .lines_changed = static_cast<int>(std::count(text.begin(), text.end(), '\n'))});
    }
  }
  for (const auto& link : symlinks) {
    fs::create_directories((output / link).parent_path(), error);
    fs::copy_symlink(input / link, output / link, error);
    if (error) result.notes.push_back("symlink " + link + " not copied: " + error.message());
  }

  // 7. Findings: the analyzer's, the translator's diagnostics, and the build-file notes that carry a rule id.
  std::set<std::tuple<std::string, std::string, uint32_t>> seen;
  for (Finding& finding : analyzer_findings) {
    if (auto r = rewrites.find(finding.location.path); r != rewrites.end()) {
      // A build-file finding is fixed when the rewriter changed its line under the same rule.
      if (r->second.changed_lines.count(finding.location.line) && r->second.changed_by.count(finding.rule_id)) {
        finding.auto_fixed = true;
      }
    }
    seen.insert({finding.rule_id, finding.location.path, finding.location.line});
    result.findings.push_back(std::move(finding));
  }
  for (const auto& [path, translation] : translations) {
    for (const Finding& diagnostic : translation.diagnostics) result.findings.push_back(diagnostic);
  }
  for (const auto& [path, rewrite] : rewrites) {
    for (const RewriteNote& note : rewrite.notes) {
      if (note.origin.rfind("HB", 0) != 0 || !seen.insert({note.origin, path, note.line}).second) continue;
      Finding finding;
      finding.rule_id = note.origin;
      finding.severity = note.left_for_person ? Severity::kWarning : Severity::kNote;
      finding.location = {path, note.line, 1};
      finding.message = note.message;
      finding.fix = note.left_for_person ? note.message : "rewritten by the repository pass";
      finding.auto_fixed = !note.left_for_person;
      result.findings.push_back(std::move(finding));
    }
  }
  for (auto& [path, translation] : translations) result.translations.push_back(std::move(translation));
  if (effort_estimator_ && have_analyzer) {
    result.effort = effort_estimator_(result.findings, result.translations);
  } else {
    for (const Finding& finding : result.findings) result.effort.by_severity[SeverityName(finding.severity)]++;
  }

  // 8. The patch.
  report("patch", 0, 1, "");
  absl::StatusOr<std::string> patch = MakeUnifiedPatch(launcher_, input, output);
  if (!patch.ok()) return patch.status();
  result.unified_patch = std::move(*patch);
  report("patch", 1, 1, "");
  return result;
}

}  // namespace hipforge::translate
