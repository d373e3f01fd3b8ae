#include "worker/translate/repo/stages/parse_sources.h"

namespace hipforge::translate {

absl::Status ParseSources(MigrationState& state, const MigrationTools&) {
  if (state.analyzer) state.companion = state.analyzer->MakeParseCompanion(state.input);
  if (!state.translator || state.to_translate.empty()) return absl::OkStatus();
  absl::StatusOr<ParsedSources> parsed =
      state.translator->Parse(state.input, state.to_translate, state.companion.get(), state.progress);
  if (!parsed.ok()) return parsed.status();
  state.parsed = std::move(*parsed);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
