#include "worker/translate/repo/stages/analyze_sources.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

absl::Status AnalyzeSources(MigrationState& state, const MigrationTools&) {
  Analyzer* analyzer = state.engines->analyzer.get();
  SourceAnalysis& output = state.analysis.emplace();
  if (analyzer == nullptr) return absl::OkStatus();
  std::vector<fs::path> files;
  for (const auto& [path, kind] : state.files->kinds) {
    if (kind != RepoFileKind::kOther) files.emplace_back(path);
  }
  absl::StatusOr<AnalysisResult> analysis =
      analyzer->Analyze(state.trees->input, files, state.progress, state.parse->companion.get());
  if (!analysis.ok()) return analysis.status();
  output.findings = std::move(analysis->findings);
  output.files = std::move(analysis->files);
  output.annotations = std::move(analysis->annotations);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
