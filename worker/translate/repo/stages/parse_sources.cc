#include "worker/translate/repo/stages/parse_sources.h"

namespace hipforge::translate {

absl::Status ParseSources(MigrationState& state, const MigrationTools&) {
  const TranslatorAndAnalyzer& engines = *state.engines;
  const std::filesystem::path& input = state.trees->input;
  const std::vector<std::filesystem::path>& to_translate = state.plan->to_translate;
  ParsedUnits& units = state.parse.emplace();
  if (engines.analyzer) units.companion = engines.analyzer->MakeParseCompanion(input);
  if (!engines.translator || to_translate.empty()) return absl::OkStatus();
  absl::StatusOr<ParsedSources> parsed =
      engines.translator->Parse(input, to_translate, units.companion.get(), state.progress);
  if (!parsed.ok()) return parsed.status();
  units.parsed = std::move(*parsed);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
