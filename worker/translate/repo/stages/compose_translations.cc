#include "worker/translate/repo/stages/compose_translations.h"

namespace hipforge::translate {

absl::Status ComposeTranslations(MigrationState& state, const MigrationTools&) {
  ComposedTranslations& composed = state.translations.emplace();
  const std::optional<ParsedSources>& parsed = state.parse->parsed;
  if (!parsed) return absl::OkStatus();
  const std::map<std::string, RepoFileKind>& kinds = state.files->kinds;
  const std::set<std::string>& extension_sources = state.plan->extension_sources;
  const auto translator_takes = [&](const std::string& path) {
    const auto kind = kinds.find(path);
    return kind != kinds.end() && IsTranslatableKind(kind->second) && !extension_sources.count(path);
  };
  SourceAnalysis& analysis = *state.analysis;
  EditsByFile extra_edits;
  if (state.options.apply_fixes) {
    for (Finding& finding : analysis.findings) {
      if (finding.edits.empty() || !translator_takes(finding.location.path)) continue;
      auto& edits = extra_edits[finding.location.path];
      edits.insert(edits.end(), finding.edits.begin(), finding.edits.end());
      finding.auto_fixed = true;
    }
  }
  for (auto& [path, edits] : analysis.annotations) {
    if (!translator_takes(path)) continue;
    auto& target = extra_edits[path];
    target.insert(target.end(), edits.begin(), edits.end());
  }
  absl::StatusOr<std::vector<FileTranslation>> translated =
      state.engines->translator->Compose(*parsed, extra_edits, state.progress);
  if (!translated.ok()) return translated.status();
  for (auto& translation : *translated) composed.by_path[translation.path] = std::move(translation);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
