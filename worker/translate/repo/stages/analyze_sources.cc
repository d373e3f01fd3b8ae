#include "worker/translate/repo/stages/analyze_sources.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

absl::Status AnalyzeSources(MigrationState& state, const MigrationTools&) {
  if (!state.analyzer) return absl::OkStatus();
  std::vector<fs::path> files;
  for (const auto& [path, kind] : state.kinds) {
    if (kind != RepoFileKind::kOther) files.emplace_back(path);
  }
  absl::StatusOr<AnalysisResult> analysis =
      state.analyzer->Analyze(state.input, files, state.progress, state.companion.get());
  if (!analysis.ok()) return analysis.status();
  state.analyzer_findings = std::move(analysis->findings);
  state.analyzed_files = std::move(analysis->files);
  state.annotations = std::move(analysis->annotations);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
