#include "worker/translate/core/source_translator.h"
#include "common/file_io.h"
#include "common/process.h"

#include "worker/translate/core/argument_rewrites.h"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "common/sha256.h"
#include "worker/translate/core/ast_pass.h"
#include "worker/translate/core/edit_composer.h"
#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/pch_cache.h"
#include "worker/translate/core/prefix_pch.h"
#include "worker/translate/core/prelude_pch.h"
#include "worker/translate/core/token_pass.h"
#include "worker/translate/core/translation_cache.h"
#include "worker/translate/core/unit_arguments.h"
#include "worker/translate/environment_switch.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

bool IsHeaderPath(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".cuh" || ext == ".inl" ||
         ext == ".inc";
}

// Absolute: PCH builds and parses run in other working directories (the PCH's, the unit's), where a relative
// `-include-pch` names nothing (`migrate-cli translate --cache cache` then failed every parse with a PCH).
// Runs `work(i)` for i in [0, count) on `jobs` threads.
template <typename Work>
void ParallelFor(size_t count, unsigned jobs, Work work) {
  const unsigned threads = static_cast<unsigned>(std::min<size_t>(count, std::max(1u, jobs)));
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) work(i);
    });
  }
  for (auto& thread : pool) thread.join();
}

// Facts of one file merged over every unit that includes it (a header is rewritten once, consistently).
struct MergedFile {
  FileFacts facts;
  bool from_parse = false;  // at least one unit that parsed saw it
  bool is_unit = false;
  bool from_cache = true;
  std::string fallback_reason;
  std::vector<UnitArgumentReport> arguments;  // when it is a unit
  std::string covered_by;                     // a unit not parsed: the unit whose parse covered its headers
};

void MergeInto(FileFacts& into, const FileFacts& from, bool first) {
  if (first) into.skipped = from.skipped;
  auto append_unique = [](auto& to, const auto& items) {
    for (const auto& item : items) {
      if (std::find(to.begin(), to.end(), item) == to.end()) to.push_back(item);
    }
  };
  append_unique(into.launches, from.launches);
  append_unique(into.warp_calls, from.warp_calls);
  append_unique(into.edits, from.edits);
  append_unique(into.macros, from.macros);
  append_unique(into.own_names, from.own_names);
  into.blas_v2 = into.blas_v2 || from.blas_v2;
  for (const auto& finding : from.findings) {
    const bool seen = std::any_of(into.findings.begin(), into.findings.end(), [&](const Finding& other) {
      return other.rule_id == finding.rule_id && other.location.line == finding.location.line &&
             other.location.column == finding.location.column && other.message == finding.message;
    });
    if (!seen) into.findings.push_back(finding);
  }
}

struct UnitOutcome : UnitFacts {
  bool from_cache = false;
  std::vector<UnitArgumentReport> arguments;
  // Not parsed: the earlier unit whose parse covered every header it includes. Its `files` then hold its own
  // entry (empty facts) and the headers it reaches, which only say what it includes (the warp define).
  std::string covered_by;
};

// A unit whose facts are not in the cache: what its parses need.
struct UnitWork {
  bool parse = false;  // false: its facts are decided (the cache had them, or it cannot be read)
  std::string relative;
  fs::path absolute;
  std::vector<UnitCommand> commands;
  std::string content;
  std::string args_text;                             // the cache key's arguments
  std::vector<std::vector<IncludePrefix>> prefixes;  // per configuration: candidates (prefix_pch.h)
  // Non-empty: the unit holds only #includes (of these project files) and declarations, nothing to translate of
  // its own; parsed only when no earlier unit covers them (SkipCoveredUnits).
  std::vector<std::string> cover_includes;
};

// Whether `directory` lies outside `root` (canonical).
bool OutsideRoot(const fs::path& directory, const fs::path& root) {
  std::error_code error;
  const fs::path relative = fs::weakly_canonical(fs::absolute(directory), error).lexically_relative(root);
  return error || relative.empty() || *relative.begin() == "..";
}

// Whether `content` holds only #include lines and declarations, comments aside: no other directive (#if, #define),
// no braces (nothing defined in the file itself), no literals. ggml's `#include "../mmq.cuh"` then
// `DECL_MMQ_CASE(GGML_TYPE_Q4_0);` is such a file.
bool OnlyIncludesAndDeclarations(std::string_view content) {
  static const std::regex kInclude(R"(^#[ \t]*include[ \t]*("[^"]+"|<[^>]+>)[ \t]*(//.*)?\r?$)");
  bool line_start = true;
  for (size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    const char next = i + 1 < content.size() ? content[i + 1] : '\0';
    if (c == '/' && next == '/') {
      i = content.find('\n', i);
      if (i == std::string_view::npos) return true;
      line_start = true;
    } else if (c == '/' && next == '*') {
      i = content.find("*/", i + 2);
      if (i == std::string_view::npos) return false;
      ++i;
    } else if (c == '#' && line_start) {
      const size_t end = std::min(content.find('\n', i), content.size());
      const std::string line(content.substr(i, end - i));
      if (!std::regex_match(line, kInclude)) return false;
      i = end;
      line_start = true;
    } else if (c == '{' || c == '"' || c == '\'' || c == '\\' || c == '#') {
      return false;
    } else if (c == '\n') {
      line_start = true;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      line_start = false;
    }
  }
  return true;
}

}  // namespace

// Everything one Parse/Compose call knows (ParsedSources::state). The translator keeps none of it in its members
// between Parse and Compose, so one translator serves concurrent calls (source_translator_test.cc runs two).
struct ParsedSourcesState {
  fs::path root;  // absolute, canonical
  std::unique_ptr<UnitArguments> arguments;
  std::vector<std::string> units;              // sources, in the order given
  std::vector<std::string> requested_headers;  // headers asked for explicitly
  std::vector<UnitOutcome> facts;              // per unit
  std::unique_ptr<PrefixPchs> prefix_pchs;     // while Parse runs, when include prefixes are precompiled
  IncludePrefixPlan prefix_plan;
};

namespace {

class SourceTranslatorImpl : public SourceTranslator {
 public:
  SourceTranslatorImpl(TranslateOptions options, CudaFrontend frontend, uint64_t cap_bytes)
      : options_(std::move(options)),
        frontend_(std::move(frontend)),
        resolver_(index_, options_),
        locations_{PchDirectoryFor(options_), options_.frontend.shim_directory},
        pch_cache_(locations_.pch, cap_bytes, clock_) {}

  absl::StatusOr<std::vector<FileTranslation>> Translate(const fs::path& root, const std::vector<fs::path>& files,
                                                         const EditsByFile& extra_edits,
                                                         const ProgressCallback& progress) override {
    absl::StatusOr<ParsedSources> parsed = Parse(root, files, nullptr, progress);
    if (!parsed.ok()) return parsed.status();
    return Compose(*parsed, extra_edits, progress);
  }

  absl::StatusOr<ParsedSources> Parse(const fs::path& root, const std::vector<fs::path>& files,
                                      ParseCompanion* companion, const ProgressCallback& progress) override {
    std::error_code error;
    const fs::path absolute_root = fs::weakly_canonical(fs::absolute(root), error);
    if (error || !fs::is_directory(absolute_root))
      return absl::InvalidArgumentError("not a directory: " + root.string());
    auto arguments = UnitArguments::Create(options_, frontend_, absolute_root);
    if (!arguments.ok()) return arguments.status();
    auto state = std::make_shared<ParsedSourcesState>();
    state->root = absolute_root;
    state->arguments = std::make_unique<UnitArguments>(std::move(*arguments));
    std::optional<TranslationCache> cache;
    if (options_.cache_directory) {
      // The companion's results are cached with the facts: its salt joins the key.
      cache.emplace(*options_.cache_directory,
                    CacheSalt() + (companion ? ";companion=" + companion->CacheSalt() : std::string()));
    }

    // Units: sources, plus headers asked for explicitly (translated standalone unless a unit includes them).
    std::vector<std::string>& units = state->units;
    for (const auto& file : files) {
      const std::string relative = file.is_absolute() ? file.lexically_relative(absolute_root).generic_string()
                                                      : file.lexically_normal().generic_string();
      (IsHeaderPath(file) ? state->requested_headers : units).push_back(relative);
    }
    std::vector<UnitOutcome>& facts = state->facts;
    facts.resize(units.size());
    std::mutex progress_mutex;
    std::atomic<int> done{0};
    auto report = [&](size_t i) {
      if (!progress) return;
      std::lock_guard lock(progress_mutex);
      progress({"translate", ++done, static_cast<int>(units.size()), units[i]});
    };
    // First the cache, so that only the units left to parse decide which include prefixes are shared.
    std::vector<UnitWork> work(units.size());
    if (UsePrefixPchs(absolute_root)) {
      state->prefix_pchs = std::make_unique<PrefixPchs>(NewPrefixJobDirectory(locations_.pch));
    }
    ParallelFor(units.size(), Jobs(), [&](size_t i) {
      work[i] = PrepareUnit(*state, units[i], cache ? &*cache : nullptr, companion, facts[i]);
      if (!work[i].parse) report(i);
    });
    // Units that only include and instantiate go last: an earlier unit's parse may cover them.
    for (const bool covered_candidates : {false, true}) {
      if (covered_candidates) SkipCoveredUnits(*state, work, companion, report);
      ParallelFor(units.size(), Jobs(), [&](size_t i) {
        const bool candidate = !work[i].cover_includes.empty();
        if (!work[i].parse || candidate != covered_candidates) return;
        facts[i] = ParseUnitWork(*state, work[i], cache ? &*cache : nullptr, companion, std::move(facts[i]));
        report(i);
      });
    }
    if (companion) RulesOnCoveredUnits(*state, work, cache ? &*cache : nullptr, companion);
    state->prefix_pchs.reset();  // the job's prefix PCHs go with it
    return ParsedSources{root, files, std::move(state)};
  }

  absl::StatusOr<std::vector<FileTranslation>> Compose(const ParsedSources& parsed, const EditsByFile& extra_edits,
                                                       const ProgressCallback& progress) override {
    if (!parsed.state) {
      absl::StatusOr<ParsedSources> fresh = Parse(parsed.root, parsed.files, nullptr, progress);
      if (!fresh.ok()) return fresh.status();
      return Compose(*fresh, extra_edits, progress);
    }
    const ParsedSourcesState& state = *parsed.state;
    const std::vector<std::string>& units = state.units;
    const std::vector<UnitOutcome>& facts = state.facts;
    const unsigned jobs = Jobs();

    // Merge per file; headers requested but never included are translated as standalone lexer-only files.
    std::map<std::string, MergedFile> merged;
    for (size_t i = 0; i < units.size(); ++i) {
      for (const auto& [path, file_facts] : facts[i].files) {
        // A covered unit's headers are decided by the unit that covered it (its entries only say what it includes).
        if (!facts[i].covered_by.empty() && path != units[i]) continue;
        auto [it, inserted] = merged.try_emplace(path);
        MergedFile& target = it->second;
        const bool first_parsed = facts[i].parsed && !target.from_parse;
        MergeInto(target.facts, file_facts, inserted || first_parsed);
        target.from_parse |= facts[i].parsed;
        target.from_cache &= facts[i].from_cache;
        if (!facts[i].parsed && target.fallback_reason.empty()) target.fallback_reason = facts[i].fallback_reason;
        if (path == units[i]) {
          target.is_unit = true;
          target.arguments = facts[i].arguments;
          target.covered_by = facts[i].covered_by;
        }
      }
    }
    for (const auto& header : state.requested_headers) {
      auto [it, inserted] = merged.try_emplace(header);
      if (inserted) {
        it->second.from_cache = false;
        it->second.fallback_reason = "not included by any translated source; translated from tokens";
      }
    }

    std::vector<std::string> paths;
    for (const auto& [path, file] : merged) paths.push_back(path);
    std::vector<FileTranslation> results(paths.size());
    ParallelFor(paths.size(), jobs, [&](size_t i) {
      const auto extra = extra_edits.find(paths[i]);
      results[i] = TranslateFile(state, paths[i], merged[paths[i]],
                                 extra == extra_edits.end() ? std::vector<TextEdit>{} : extra->second);
    });
    AddWarpSyncDefineToIncluders(units, facts, results);
    // Units first, in the order given, then headers.
    std::stable_sort(results.begin(), results.end(), [&](const FileTranslation& a, const FileTranslation& b) {
      auto rank = [&](const FileTranslation& t) {
        const auto it = std::find(units.begin(), units.end(), t.path);
        return it == units.end() ? units.size() : static_cast<size_t>(it - units.begin());
      };
      return rank(a) < rank(b);
    });
    return results;
  }

 private:
  // HIP 6.2+ declares the *_sync warp functions only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined before the
  // first HIP include of the unit. The token pass defines it in each file that calls them; a unit that includes
  // such a project header after a HIP header of its own (HeCBench attentionMultiHeadKVCache: main.cu includes
  // hip_runtime.h, then math.cuh) needs it on its own first line too.
  static void AddWarpSyncDefineToIncluders(const std::vector<std::string>& units, const std::vector<UnitOutcome>& facts,
                                           std::vector<FileTranslation>& results) {
    constexpr std::string_view kDefine = "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1\n";
    std::map<std::string, FileTranslation*> by_path;
    for (FileTranslation& result : results) by_path[result.path] = &result;
    static const std::regex kDefinition(R"((^|\n)[ \t]*#[ \t]*define[ \t]+HIP_ENABLE_WARP_SYNC_BUILTINS\b)");
    // Each file's output is searched once (before any insertion below), not once per unit that includes it: on
    // ggml every unit includes the same large headers, and this search was ~40% of an unchanged re-run.
    std::set<std::string> defining;
    for (const FileTranslation& result : results) {
      if (result.output.find("HIP_ENABLE_WARP_SYNC_BUILTINS") != std::string::npos &&
          std::regex_search(result.output, kDefinition)) {
        defining.insert(result.path);
      }
    }
    for (size_t i = 0; i < units.size(); ++i) {
      const auto unit = by_path.find(units[i]);
      if (unit == by_path.end() || unit->second->status == FileStatus::kFailed || defining.count(units[i])) continue;
      bool header_defines = false;
      for (const auto& [path, unused] : facts[i].files) header_defines |= path != units[i] && defining.count(path);
      if (!header_defines) continue;
      FileTranslation& file = *unit->second;
      file.output.insert(ByteOrderMarkLength(file.output), kDefine);
      file.stats.lines_changed++;
      file.changed_by.insert("warp");
      if (file.status == FileStatus::kUnchanged) file.status = FileStatus::kTranslated;
      defining.insert(units[i]);  // a unit that includes this one sees the define too
    }
  }

  unsigned Jobs() const { return options_.jobs ? options_.jobs : UsableCpus(); }

  std::string CacheSalt() const {
    std::ostringstream salt;
    // Bump the generation when the facts a parse records change (5: fp8 conversions in device code). The
    // argument-rewrite table is part of the salt: facts hold the call sites of exactly the functions it names, so a
    // new record must not meet older facts.
    salt << "hipforge-translator-5;rewrites=";
    for (const ArgumentRewrite& rewrite : ArgumentRewrites()) salt << rewrite.function << ',';
    salt << ";" << int(options_.target_hip_version.major) << "." << int(options_.target_hip_version.minor)
         << ";roc=" << options_.roc << ";miopen=" << options_.miopen
         << ";hip-data-types=" << options_.use_hip_data_types << ";experimental=" << options_.experimental;
    return salt.str();
  }

  // The per-call state (root, unit arguments) lives in `call`, never in the translator: one translator serves
  // concurrent calls. Fills `outcome` with the unit's arguments, and its facts when the cache has them.
  UnitWork PrepareUnit(ParsedSourcesState& call, const std::string& relative, TranslationCache* cache,
                       ParseCompanion* companion, UnitOutcome& outcome) const {
    UnitWork work;
    work.relative = relative;
    work.absolute = call.root / relative;
    work.commands = call.arguments->For(work.absolute);
    for (const UnitCommand& command : work.commands) outcome.arguments.push_back(command.report);
    auto content = ReadFileBytes(work.absolute);
    if (!content) {
      outcome.fallback_reason = "cannot read " + relative;
      outcome.files[relative];
      return work;
    }
    work.content = std::move(*content);
    for (const UnitCommand& command : work.commands) {
      for (const auto& arg : command.args) work.args_text += locations_.KeyText(arg) + '\n';  // a copied cache hits
      work.args_text += "--\n";
    }
    if (cache) {
      auto cached = cache->Lookup(relative, work.content, work.args_text, call.root);
      // A companion's results must come from the cache too, or the unit is parsed again (for both).
      if (cached &&
          (!companion || (!cached->companion.is_null() && companion->Restore(work.absolute, cached->companion)))) {
        static_cast<UnitFacts&>(outcome) = std::move(*cached);
        outcome.from_cache = true;
        return work;
      }
    }
    work.parse = true;
    if (options_.skip_covered_units) work.cover_includes = CoverIncludes(call, work);
    if (work.cover_includes.empty()) PlanPrefixes(call, work, companion);  // a candidate's when it is parsed
    return work;
  }

  void PlanPrefixes(ParsedSourcesState& call, UnitWork& work, ParseCompanion* companion) const {
    if (!call.prefix_pchs) return;
    for (size_t i = 0; i < work.commands.size(); ++i) {
      work.prefixes.push_back(IncludePrefixes(work.content, work.absolute, call.root, work.commands[i].args, locations_,
                                              PrefixSalt(i == 0 ? companion : nullptr)));
      call.prefix_plan.Count(work.prefixes.back());
    }
  }

  // The project files a unit with nothing to translate of its own includes directly; empty for any other unit
  // (a CUDA name, a directive besides #include, a definition, a quoted include outside the project). The
  // hip_runtime.h include every unit gets is decided from its tokens alone, parsed or not.
  std::vector<std::string> CoverIncludes(const ParsedSourcesState& call, const UnitWork& work) const {
    if (!OnlyIncludesAndDeclarations(work.content)) return {};
    const FileFacts none;
    const TokenPassOutput tokens = RunTokenPass({work.relative, work.content, &none, true, true}, resolver_);
    const bool runtime_only = std::all_of(tokens.edits.begin(), tokens.edits.end(),
                                          [](const TextEdit& edit) { return edit.origin == "runtime"; });
    if (!runtime_only || !tokens.launches.empty() || !tokens.warp_calls.empty() || !tokens.call_rewrites.empty() ||
        !tokens.call_warnings.empty() || !tokens.findings.empty() || tokens.stats.ConvertedTotal() != 0 ||
        tokens.stats.unconverted != 0 || tokens.stats.unsupported != 0) {
      return {};
    }
    std::vector<std::string> includes;
    for (const IncludeName& include : tokens.includes) {
      std::optional<std::string> file = ResolveInclude(call, work.relative, include);
      if (file) {
        includes.push_back(std::move(*file));
      } else if (!include.angled) {
        return {};
      }
    }
    return includes;
  }

  // Cover candidates (UnitWork::cover_includes) that an earlier unit of the same configuration covers -- its parse
  // (or cached facts) entered every project file the candidate includes -- are not parsed: their facts are their
  // own file's, empty, and the headers' come from that unit. The companion is told so. The rest are parsed after.
  void SkipCoveredUnits(ParsedSourcesState& call, std::vector<UnitWork>& work, ParseCompanion* companion,
                        const std::function<void(size_t)>& report) const {
    std::map<std::string, std::vector<std::string>> includes;  // per file: its direct project includes
    for (size_t i = 0; i < work.size(); ++i) {
      if (!work[i].parse || work[i].cover_includes.empty()) continue;
      for (size_t j = 0; j < i; ++j) {
        const UnitOutcome& by = call.facts[j];
        if (!by.parsed || !by.covered_by.empty() || work[j].args_text != work[i].args_text ||
            !std::all_of(work[i].cover_includes.begin(), work[i].cover_includes.end(),
                         [&](const std::string& file) { return by.files.count(file) > 0; })) {
          continue;
        }
        UnitOutcome& outcome = call.facts[i];
        outcome.parsed = true;
        outcome.covered_by = call.units[j];
        outcome.from_cache = by.from_cache;
        for (const std::string& file : ReachableFiles(call, work[i].relative, by.files, includes)) outcome.files[file];
        work[i].parse = false;
        if (companion) companion->Covered(work[i].absolute);
        report(i);
        break;
      }
    }
    for (UnitWork& unit : work) {
      if (unit.parse && !unit.cover_includes.empty()) PlanPrefixes(call, unit, companion);
    }
  }

  // The companion's rules on the units SkipCoveredUnits left unparsed, so that what only their instantiations show
  // (ggml: a fattn-tile configuration's static __shared__ size) is found as parsing each would. Covered units of one
  // configuration that include the same files are parsed together, up to kUnitsPerParse, as one unit: their includes
  // once, then each one's declarations (the headers once, the instantiations all), the matchers over the instantiations
  // only (the covering unit's parse matched the rest). The result is the first unit's; the facts cache keeps it under
  // the group's content.
  void RulesOnCoveredUnits(const ParsedSourcesState& call, const std::vector<UnitWork>& work, TranslationCache* cache,
                           ParseCompanion* companion) const {
    // At most this many units per parse: ggml's 22 mmq instances in one AST peaked at 2.3 GB.
    constexpr size_t kUnitsPerParse = 8;
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;  // (arguments, includes): units
    for (size_t i = 0; i < work.size(); ++i) {
      if (!call.facts[i].covered_by.empty())
        groups[{work[i].args_text, CoveredIncludeLines(call, work[i])}].push_back(i);
    }
    std::vector<std::vector<size_t>> batches;
    for (const auto& [key, members] : groups) {
      for (size_t at = 0; at < members.size(); at += kUnitsPerParse) {
        batches.emplace_back(members.begin() + at, members.begin() + std::min(members.size(), at + kUnitsPerParse));
      }
    }
    ParallelFor(batches.size(), Jobs(),
                [&](size_t b) { RulesOnCoveredGroup(call, work, batches[b], cache, companion); });
  }

  // A covered unit's #includes as a unit elsewhere includes the same files: project files by absolute path.
  std::string CoveredIncludeLines(const ParsedSourcesState& call, const UnitWork& unit) const {
    const FileFacts none;
    std::string lines;
    for (const IncludeName& include :
         RunTokenPass({unit.relative, unit.content, &none, true, true}, resolver_).includes) {
      const std::optional<std::string> file = ResolveInclude(call, unit.relative, include);
      lines += file ? "#include \"" + (call.root / *file).string() + "\"\n" : "#include <" + include.name + ">\n";
    }
    return lines;
  }

  // A covered unit's declarations: its text without its #include lines (headers without include guards, as ggml's
  // fattn-vec.cuh, are included once for the group).
  static std::string WithoutIncludes(std::string_view content) {
    static const std::regex kInclude(R"(^[ \t]*#[ \t]*include\b.*$)");
    std::string kept;
    size_t at = 0;
    while (at < content.size()) {
      const size_t end = std::min(content.find('\n', at), content.size());
      const std::string line(content.substr(at, end - at));
      if (!std::regex_match(line, kInclude)) kept += line;
      kept += '\n';
      at = end + 1;
    }
    return kept;
  }

  void RulesOnCoveredGroup(const ParsedSourcesState& call, const std::vector<UnitWork>& work,
                           const std::vector<size_t>& members, TranslationCache* cache,
                           ParseCompanion* companion) const {
    const UnitWork& first = work[members.front()];
    std::string content = CoveredIncludeLines(call, first);
    for (size_t i : members) content += WithoutIncludes(work[i].content);
    const std::string name =
        "covered-units-" + Sha256Hex(content + first.args_text).substr(0, 16) + first.absolute.extension().string();
    if (cache) {
      auto cached = cache->Lookup(name, content, first.args_text, call.root);
      if (cached && companion->Restore(first.absolute, cached->companion)) return;
    }
    std::unique_ptr<CompanionConsumer> consumer = companion->ConsumerForCovered(first.absolute);
    if (!consumer) return;
    const fs::path directory = locations_.pch / "covered-units";
    std::error_code error;
    fs::create_directories(directory, error);
    const fs::path file = directory / name;
    if (error || !WriteFileAtomically(file, content).ok()) return;  // the units stay as Covered left them
    // Clang's typo correction runs where no diagnostic is shown too (a template name looked up during deduction, a
    // substitution failure), ~2% of ggml's CPU; a group's errors are never shown (a failed parse leaves its units
    // covered, whatever the error says), so it has nothing to correct here. Benign for the PCH.
    std::vector<std::string> args = first.commands.front().args;
    args.push_back("-fno-spell-checking");
    UnitParseRequest request{call.root, file, args, call.arguments->readable_roots()};
    request.instantiations_only = true;
    if (!request.readable_roots.empty()) request.readable_roots.push_back(locations_.pch.string());
    std::vector<PchCache::Use> in_use;
    if (options_.use_prelude_pch && frontend_.cuda_path()) {
      if (auto prelude = EnsurePreludePch(first.commands.front().args, locations_)) {  // the units' own prelude
        in_use.push_back(pch_cache_.Pin({*prelude}));
        request.args.insert(request.args.end(), {"-include-pch", prelude->string()});
      }
    }
    UnitParseResult parse = ParseUnit(request, {consumer.get()});
    if (!parse.parsed && IsPchProblem(parse.first_error) && request.args.size() != args.size()) {
      consumer = companion->ConsumerForCovered(first.absolute);
      request.args = args;
      parse = ParseUnit(request, {consumer.get()});
    }
    fs::remove(file, error);
    UnitFacts facts;
    facts.companion = consumer->Finish(parse);
    if (!parse.parsed) {  // not what parsing each unit would give: the units stay covered, their rules unrun
      companion->Covered(first.absolute);
      return;
    }
    facts.parsed = true;
    for (const std::string& path : facts.companion.value("entered_files", std::vector<std::string>())) {
      if (auto bytes = ReadFileBytes(call.root / path)) facts.dependencies[path] = Sha256Hex(*bytes);
    }
    if (cache) cache->Store(name, content, first.args_text, facts);
  }

  // `relative` and the files of `within` it reaches through #include (ResolveInclude, every #if branch followed).
  std::set<std::string> ReachableFiles(const ParsedSourcesState& call, const std::string& relative,
                                       const std::map<std::string, FileFacts>& within,
                                       std::map<std::string, std::vector<std::string>>& includes) const {
    std::set<std::string> seen = {relative};
    std::vector<std::string> pending = {relative};
    while (!pending.empty()) {
      const std::string path = std::move(pending.back());
      pending.pop_back();
      auto [direct, inserted] = includes.try_emplace(path);
      if (inserted) {
        const auto bytes = ReadFileBytes(call.root / path);
        const TokenPassOutput tokens =
            RunTokenPass({path, bytes ? *bytes : std::string(), nullptr, false, false}, resolver_);
        for (const IncludeName& include : tokens.includes) {
          if (auto file = ResolveInclude(call, path, include)) direct->second.push_back(std::move(*file));
        }
      }
      for (const std::string& file : direct->second) {
        if (within.count(file) && seen.insert(file).second) pending.push_back(file);
      }
    }
    return seen;
  }

  // The project file an #include names (relative to the root) as the preprocessor would find it without the unit's
  // own -I: from the includer's directory (quoted), then the include dirs; nullopt when not a project file.
  std::optional<std::string> ResolveInclude(const ParsedSourcesState& call, const std::string& includer,
                                            const IncludeName& include) const {
    std::vector<fs::path> candidates;
    if (!include.angled) candidates.push_back((call.root / includer).parent_path() / include.name);
    for (const auto& dir : call.arguments->include_dirs()) candidates.push_back(dir / include.name);
    for (const auto& candidate : candidates) {
      std::error_code error;
      if (!fs::is_regular_file(candidate, error)) continue;
      const auto rel = fs::weakly_canonical(candidate, error).lexically_relative(call.root);
      if (error || rel.empty() || *rel.begin() == "..") return std::nullopt;
      return rel.generic_string();
    }
    return std::nullopt;
  }

  UnitOutcome ParseUnitWork(const ParsedSourcesState& call, const UnitWork& work, TranslationCache* cache,
                            ParseCompanion* companion, UnitOutcome outcome) const {
    const std::string& relative = work.relative;
    const std::string_view content = work.content;
    auto prefix = [&](size_t configuration) -> std::vector<IncludePrefix> {
      if (configuration >= work.prefixes.size()) return {};
      return call.prefix_plan.Choose(work.prefixes[configuration]);
    };
    // One parse per configuration; their facts are merged so that every configuration's code is converted.
    // The first configuration's parse also feeds the companion (the analyzer's AST rules).
    UnitFacts facts =
        ParseConfiguration(call, work.absolute, content, work.commands.front().args, companion, prefix(0));
    nlohmann::json companion_result = std::move(facts.companion);
    for (size_t i = 1; i < work.commands.size(); ++i) {
      MergeConfiguration(facts,
                         ParseConfiguration(call, work.absolute, content, work.commands[i].args, nullptr, prefix(i)));
    }
    facts.companion = std::move(companion_result);
    if (!facts.parsed) AddFallbackFacts(call, relative, work.content, facts);
    facts.files[relative];  // the unit always has an entry
    for (const auto& [path, file] : facts.files) {
      if (path == relative) {
        facts.dependencies[path] = Sha256Hex(work.content);
      } else if (auto bytes = ReadFileBytes(call.root / path)) {
        facts.dependencies[path] = Sha256Hex(*bytes);
      }
    }
    if (cache) cache->Store(relative, work.content, work.args_text, facts);
    static_cast<UnitFacts&>(outcome) = std::move(facts);
    return outcome;
  }

  // Include prefixes are precompiled per job when PCHs are on, except with the PCH directory inside the project
  // (the PCH sources would be project files).
  bool UsePrefixPchs(const fs::path& root) const {
    if (!options_.use_prefix_pch || !options_.use_prelude_pch || !frontend_.cuda_path()) return false;
    return OutsideRoot(locations_.pch, root);
  }

  // A prefix PCH built with a companion records the companion's view too: parses with and without one never
  // share one.
  static std::string PrefixSalt(ParseCompanion* companion) {
    return companion ? "companion " + companion->CacheSalt() : "no companion";
  }

  // Parses with the unit's library preamble PCH (chained on the prelude PCH), else the prelude PCH, else
  // neither: a PCH that fails the parse is dropped and the next one is tried, so a PCH never decides the facts.
  UnitFacts ParseConfiguration(const ParsedSourcesState& call, const fs::path& absolute, std::string_view content,
                               const std::vector<std::string>& args, ParseCompanion* companion,
                               const std::vector<IncludePrefix>& prefixes) const {
    AstPassRequest request{call.root, absolute, args, call.arguments->readable_roots()};
    std::vector<fs::path> pchs;                     // the most specific first
    const PrefixPchs::Built* prefix_pch = nullptr;  // pchs[0] when set
    std::vector<PchCache::Use> in_use;              // not evicted while this parse (or a preamble build on them) runs
    if (options_.use_prelude_pch && frontend_.cuda_path()) {
      const fs::path& directory = locations_.pch;
      const uint64_t builds = PchBuildCount();
      if (auto prelude = EnsurePreludePch(args, locations_)) {
        in_use.push_back(pch_cache_.Pin({*prelude}));
        if (!request.readable_roots.empty()) request.readable_roots.push_back(directory.string());
        std::vector<std::string> chained = args;
        chained.insert(chained.end(), {"-include-pch", prelude->string()});
        // A library preamble's PCH outlives the job; a project include prefix's is the job's, for the units
        // whose preamble is not a library one (or cannot be precompiled as one).
        bool refused = true;
        if (options_.use_preamble_pch) {
          if (auto preamble = EnsurePreamblePch(
                  {content, absolute, call.root, chained, request.readable_roots, directory, locations_.shims},
                  &refused)) {
            in_use.push_back(pch_cache_.Pin({*preamble}));
            pchs.push_back(*preamble);
          }
        }
        if (pchs.empty() && refused && !prefixes.empty() && call.prefix_pchs) {
          // Its record holds the companion's view when the build had one (the key's salt says whether).
          prefix_pch = call.prefix_pchs->First(
              prefixes, PrefixRequest(call, absolute, chained, request.readable_roots, companion),
              [&](const PrefixPchs::Built& built) { return built.record.size() == (companion ? 2u : 1u); });
          if (prefix_pch) pchs.push_back(prefix_pch->pch);
        }
        pchs.push_back(*prelude);
      }
      if (PchBuildCount() != builds) pch_cache_.Enforce();  // this process built one (maybe another thread)
    }
    std::unique_ptr<CompanionConsumer> consumer;
    UnitParseResult parse;
    UnitFacts facts;
    std::optional<std::string> preamble_error;  // the preamble PCH's parse failed with this
    for (size_t attempt = 0; attempt <= pchs.size(); ++attempt) {
      const bool last = attempt == pchs.size();
      request.args = args;
      if (!last) request.args.insert(request.args.end(), {"-include-pch", pchs[attempt].string()});
      consumer = companion ? companion->ConsumerFor(absolute) : nullptr;  // a failed parse's results are not the unit's
      request.companions.clear();
      if (consumer) request.companions = {consumer.get()};
      const bool with_prefix = prefix_pch && attempt == 0;
      request.project_pch = with_prefix;
      request.prefix_record = with_prefix ? &prefix_pch->record.at(0) : nullptr;
      if (with_prefix && consumer) consumer->SeedPrefix(prefix_pch->record.at(1));
      facts = RunAstPass(request, resolver_, &parse);
      // A parse with a prefix PCH that fails is not trusted with the error: the parse without it decides.
      if (with_prefix && !facts.parsed) continue;
      if (attempt == 1 && preamble_error && (facts.parsed || facts.fallback_reason != *preamble_error)) {
        RejectPreamblePch(pchs[0], /*stale=*/IsPchProblem(*preamble_error));
      }
      if (facts.parsed || last) break;
      if (attempt + 1 < pchs.size()) {
        // An error in the unit's own code is the unit's (its preamble's declarations are the same either way);
        // any other error: the parse with the prelude alone decides.
        if (!IsPchProblem(facts.fallback_reason) &&
            facts.fallback_reason.rfind(absolute.filename().string() + ":", 0) == 0) {
          break;
        }
        preamble_error = facts.fallback_reason;
      } else if (IsPchProblem(facts.fallback_reason)) {
        std::error_code ignored;
        fs::remove(pchs[attempt], ignored);  // stale (toolkit or compiler changed): rebuilt next time
      } else {
        break;  // the unit's own error
      }
    }
    if (consumer) facts.companion = consumer->Finish(parse);
    return facts;
  }

  PrefixPchs::Request PrefixRequest(const ParsedSourcesState& call, const fs::path& absolute,
                                    const std::vector<std::string>& chained,
                                    const std::vector<std::string>& readable_roots, ParseCompanion* companion) const {
    PrefixPchs::Request request;
    request.extension = absolute.extension().string();
    request.args = chained;
    request.readable_roots = readable_roots;
    request.root = call.root;
    request.consumers = [this, &call, &absolute, companion] {
      std::vector<std::unique_ptr<ParseConsumer>> consumers;
      consumers.push_back(MakePrefixFactsRecorder(call.root, resolver_));
      std::unique_ptr<ParseConsumer> consumer = companion ? companion->ConsumerFor(absolute) : nullptr;
      if (consumer) consumers.push_back(std::move(consumer));
      return consumers;
    };
    return request;
  }

  // A second configuration's facts join the first's: what one parse skipped (an #ifdef of a define the
  // other sets) is skipped only if both skipped it.
  static void MergeConfiguration(UnitFacts& into, UnitFacts from) {
    if (!from.parsed) return;
    if (!into.parsed) {
      into = std::move(from);
      return;
    }
    for (auto& [path, file] : from.files) {
      auto [it, inserted] = into.files.try_emplace(path, file);
      if (inserted) continue;
      std::vector<ByteRange> both;
      for (const ByteRange& a : it->second.skipped) {
        for (const ByteRange& b : file.skipped) {
          const uint32_t begin = std::max(a.begin, b.begin), end = std::min(a.end, b.end);
          if (begin < end) both.push_back({begin, end});
        }
      }
      MergeInto(it->second, file, false);
      it->second.skipped = std::move(both);
    }
  }

  // Without a parse: project headers reachable through #include (resolved like the preprocessor would,
  // from the includer's directory and the include dirs) join the unit, for the lexer pass.
  void AddFallbackFacts(const ParsedSourcesState& call, const std::string& relative, const std::string& content,
                        UnitFacts& facts) const {
    const fs::path& root = call.root;
    std::vector<std::pair<std::string, std::string>> pending = {{relative, content}};
    std::set<std::string> seen = {relative};
    while (!pending.empty()) {
      auto [path, text] = std::move(pending.back());
      pending.pop_back();
      facts.files[path];
      TokenPassInput input{path, text, nullptr, false, false};
      for (const auto& include : RunTokenPass(input, resolver_).includes) {
        const std::optional<std::string> key = ResolveInclude(call, path, include);
        if (key && seen.insert(*key).second) {
          if (auto bytes = ReadFileBytes(root / *key)) pending.emplace_back(*key, std::move(*bytes));
        }
      }
    }
  }

  FileTranslation TranslateFile(const ParsedSourcesState& call, const std::string& path, const MergedFile& merged,
                                const std::vector<TextEdit>& extra) const {
    FileTranslation result;
    result.path = path;
    result.from_cache = merged.from_cache;
    result.arguments = merged.arguments;
    result.covered_by = merged.covered_by;
    const auto content = ReadFileBytes(call.root / path);
    if (!content) {
      result.status = FileStatus::kFailed;
      result.fallback_reason = "cannot read the file";
      return result;
    }
    const bool parsed = merged.from_parse;
    // The lexer always looks for launches and warp calls: without a parse they are all it has; with one, it
    // covers the inactive #if branches the parser skipped.
    TokenPassInput input{path, *content, &merged.facts, merged.is_unit, true};
    TokenPassOutput tokens = RunTokenPass(input, resolver_);
    ComposeInput compose{path, *content, std::move(tokens.edits), {}, {}, {}, extra};
    for (const auto& edit : merged.facts.edits) compose.fact_edits.push_back(edit.edit);
    if (parsed) {
      compose.launches = merged.facts.launches;
      compose.warp_calls = merged.facts.warp_calls;
      if (!(options_.target_hip_version < kHipWarpSyncIntroduced)) {
        // The AST pass collects warp calls only for HIP < 6.2; the mask widening for 6.2+ works from tokens.
        compose.warp_calls = tokens.warp_calls;
        tokens.warp_calls.clear();
      }
      for (WarpCallSite& call : compose.warp_calls) {
        const auto& proven = tokens.full_mask_variables;
        if (std::find(proven.begin(), proven.end(), call.callee.begin) != proven.end()) call.full_mask = true;
      }
      if (options_.translate_inactive_branches || options_.amap) {
        auto skipped = [&](uint32_t offset) {
          return std::any_of(merged.facts.skipped.begin(), merged.facts.skipped.end(),
                             [&](const ByteRange& range) { return offset >= range.begin && offset < range.end; });
        };
        for (auto& launch : tokens.launches) {
          if (skipped(launch.whole.begin)) compose.launches.push_back(std::move(launch));
        }
        for (auto& call : tokens.warp_calls) {
          if (skipped(call.callee.begin)) compose.warp_calls.push_back(std::move(call));
        }
        for (auto& [offset, edits] : tokens.call_rewrites) {
          if (skipped(offset)) compose.fact_edits.insert(compose.fact_edits.end(), edits.begin(), edits.end());
        }
      }
    } else {
      compose.launches = std::move(tokens.launches);
      compose.warp_calls = std::move(tokens.warp_calls);
      for (auto& [offset, edits] : tokens.call_rewrites) {
        compose.fact_edits.insert(compose.fact_edits.end(), edits.begin(), edits.end());
      }
      for (const auto& warning : tokens.call_warnings) {
        Finding finding;
        finding.rule_id = std::string(kRuleArgumentDropped);
        finding.location = {path, 1, 1};
        finding.message = warning;
        tokens.findings.push_back(std::move(finding));
      }
    }
    ComposedFile composed = ComposeAndApply(compose, options_);

    result.output = std::move(composed.output);
    result.stats = tokens.stats;
    result.stats.Add(composed.stats);
    result.stats.lines_changed = composed.stats.lines_changed;
    result.changed_by = tokens.changed_by;
    result.changed_by.insert(composed.changed_by.begin(), composed.changed_by.end());
    if (!parsed) {
      result.status = FileStatus::kFallback;
      result.fallback_reason =
          merged.fallback_reason.empty() ? "no translation unit including it parsed" : merged.fallback_reason;
      Finding finding;
      finding.rule_id = std::string(kRuleFallback);
      finding.severity = Severity::kWarning;
      finding.location = {path, 1, 1};
      finding.message = "translated by the token-level fallback: " + result.fallback_reason;
      finding.fix = "Check the output; kernel launches and warp masks were found from tokens, not the AST.";
      result.diagnostics.push_back(std::move(finding));
    } else {
      result.status = result.output == *content ? FileStatus::kUnchanged : FileStatus::kTranslated;
    }
    for (const std::vector<Finding>* list : std::initializer_list<const std::vector<Finding>*>{
             &merged.facts.findings, &tokens.findings, &composed.findings}) {
      result.diagnostics.insert(result.diagnostics.end(), list->begin(), list->end());
    }
    return result;
  }

  TranslateOptions options_;
  CudaFrontend frontend_;
  MappingIndex index_;
  NameResolver resolver_;
  CacheLocations locations_;
  SystemClock clock_;
  PchCache pch_cache_;
};

}  // namespace

fs::path DefaultShimDirectory(const TranslateOptions& options) {
  return PchDirectoryFor(options).parent_path() / "shims";
}

namespace {

// The frontend of `options`, its shim directory defaulted first (and left in `options` for the caller's caches).
absl::StatusOr<CudaFrontend> FrontendWithShims(TranslateOptions& options) {
  if (options.frontend.shim_directory.empty()) {
    options.frontend.shim_directory = DefaultShimDirectory(options);
  }
  return CudaFrontend::Create(options.frontend);
}

}  // namespace

absl::StatusOr<UnitArgumentLookup> MakeUnitArgumentLookup(TranslateOptions options, const fs::path& root) {
  auto frontend = FrontendWithShims(options);
  if (!frontend.ok()) return frontend.status();
  std::error_code error;
  auto arguments = UnitArguments::Create(options, *frontend, fs::weakly_canonical(fs::absolute(root), error));
  if (!arguments.ok()) return arguments.status();
  auto shared = std::make_shared<UnitArguments>(std::move(*arguments));
  return UnitArgumentLookup([shared](const fs::path& file) { return shared->For(file).front().args; });
}

PreludePchLookup MakePreludePchLookup(TranslateOptions options) {
  if (!options.use_prelude_pch) return nullptr;
  auto frontend = FrontendWithShims(options);
  if (!frontend.ok() || !frontend->cuda_path()) return nullptr;
  const CacheLocations locations{PchDirectoryFor(options), options.frontend.shim_directory};
  return [locations](const std::vector<std::string>& args) { return EnsurePreludePch(args, locations); };
}

SharedPrefixesFactory MakeSharedPrefixesFactory(TranslateOptions options) {
  absl::StatusOr<std::optional<bool>> prefix = EnvironmentSwitch("HIPFORGE_PREFIX_PCH");
  if (!options.use_prefix_pch || !options.use_prelude_pch || !prefix.ok() || (*prefix && !**prefix)) return nullptr;
  auto frontend = FrontendWithShims(options);
  if (!frontend.ok() || !frontend->cuda_path()) return nullptr;
  const CacheLocations locations{PchDirectoryFor(options), options.frontend.shim_directory};
  return [locations](const fs::path& root) -> std::unique_ptr<SharedPrefixes> {
    if (!OutsideRoot(locations.pch, root)) return nullptr;  // the PCH sources would be project files
    return MakeSharedPrefixes(root, locations);
  };
}

absl::StatusOr<std::unique_ptr<SourceTranslator>> CreateSourceTranslator(TranslateOptions options) {
  auto frontend = FrontendWithShims(options);
  if (!frontend.ok()) return frontend.status();
  absl::StatusOr<uint64_t> cap = PchCacheCap(options.pch_cache_bytes);
  if (!cap.ok()) return cap.status();
  // Any binary's switches, as the cache size is (operators, bench/ggml): 0 turns the per-job prefix PCHs off; 1 or
  // 0 turns the skipping of covered units on or off.
  absl::StatusOr<std::optional<bool>> prefix = EnvironmentSwitch("HIPFORGE_PREFIX_PCH");
  absl::StatusOr<std::optional<bool>> skip = EnvironmentSwitch(kSkipCoveredUnitsVariable);
  if (!prefix.ok()) return prefix.status();
  if (!skip.ok()) return skip.status();
  if (*prefix) options.use_prefix_pch = options.use_prefix_pch && **prefix;
  if (*skip) options.skip_covered_units = **skip;
  return std::make_unique<SourceTranslatorImpl>(std::move(options), std::move(*frontend), *cap);
}

}  // namespace hipforge::translate
