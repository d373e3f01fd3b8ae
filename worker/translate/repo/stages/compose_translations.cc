#include "worker/translate/repo/stages/compose_translations.h"

namespace hipforge::translate {

absl::Status ComposeTranslations(MigrationState& state, const MigrationTools&) {
  if (!state.parsed) return absl::OkStatus();
  const auto translator_takes = [&](const std::string& path) {
    const auto kind = state.kinds.find(path);
    return kind != state.kinds.end() && IsTranslatableKind(kind->second) && !state.extension_sources.count(path);
  };
  EditsByFile extra_edits;
  if (state.options.apply_fixes) {
    for (Finding& finding : state.analyzer_findings) {
      if (finding.edits.empty() || !translator_takes(finding.location.path)) continue;
      auto& edits = extra_edits[finding.location.path];
      edits.insert(edits.end(), finding.edits.begin(), finding.edits.end());
      finding.auto_fixed = true;
    }
  }
  for (auto& [path, edits] : state.annotations) {
    if (!translator_takes(path)) continue;
    auto& target = extra_edits[path];
    target.insert(target.end(), edits.begin(), edits.end());
  }
  absl::StatusOr<std::vector<FileTranslation>> translated =
      state.translator->Compose(*state.parsed, extra_edits, state.progress);
  if (!translated.ok()) return translated.status();
  for (auto& translation : *translated) state.translations[translation.path] = std::move(translation);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
