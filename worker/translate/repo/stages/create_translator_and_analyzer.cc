#include "worker/translate/repo/stages/create_translator_and_analyzer.h"

#include "worker/translate/core/prefix_pch.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

absl::Status CreateTranslatorAndAnalyzer(MigrationState& state, const MigrationTools& tools) {
  const MigrationOptions& options = state.options;
  const TranslateOptions& translate_options = state.unit_arguments->translate_options;
  const std::vector<std::string>& needs_translator = state.plan->needs_translator;
  TranslatorAndAnalyzer& engines = state.engines.emplace();
  absl::StatusOr<std::unique_ptr<SourceTranslator>> translator = tools.translator_factory(translate_options);
  if (translator.ok()) {
    engines.translator = std::move(*translator);
  } else if (!needs_translator.empty()) {
    return absl::FailedPreconditionError(std::to_string(needs_translator.size()) +
                                         " file(s) use CUDA (first: " + needs_translator.front() +
                                         ") but cannot be translated: " + std::string(translator.status().message()));
  }

  AnalyzeOptions analyze_options = options.analyze;
  // One set of compile arguments: the analyzer parses with the translator's front end (job arguments and
  // confinement included).
  const fs::path analyzer_shims = analyze_options.frontend.shim_directory;
  analyze_options.frontend = translate_options.frontend;
  if (!analyzer_shims.empty()) analyze_options.frontend.shim_directory = analyzer_shims;
  if (auto lookup = MakeUnitArgumentLookup(translate_options, state.trees->input); lookup.ok()) {
    analyze_options.unit_arguments = std::move(*lookup);
  }
  // Its device-side parses use the translator's prelude PCH (built for their arguments).
  analyze_options.device_prelude_pch = MakePreludePchLookup(translate_options);
  // And the include prefixes they share, precompiled per pass as the translator's are per job.
  analyze_options.device_prefixes = MakeSharedPrefixesFactory(translate_options);
  // The analyzer's own parses (device side, headers no unit includes) are cached beside the translator's facts.
  if (options.translate.cache_directory)
    analyze_options.cache_directory = *options.translate.cache_directory / "analyzer";
  analyze_options.annotate = analyze_options.annotate || options.annotate;
  analyze_options.target_architectures = options.hip_architectures;  // HB206 needs to know about gfx94x
  absl::StatusOr<std::unique_ptr<Analyzer>> analyzer = tools.analyzer_factory(analyze_options);
  if (analyzer.ok()) {
    engines.analyzer = std::move(*analyzer);
  } else {
    state.result.notes.push_back("findings incomplete: " + std::string(analyzer.status().message()));
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
