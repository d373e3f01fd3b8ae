#include "worker/translate/repo/repository_migrator.h"

#include "worker/translate/repo/stages/analyze_sources.h"
#include "worker/translate/repo/stages/check_trees.h"
#include "worker/translate/repo/stages/collect_files.h"
#include "worker/translate/repo/stages/collect_findings.h"
#include "worker/translate/repo/stages/compose_translations.h"
#include "worker/translate/repo/stages/create_translator_and_analyzer.h"
#include "worker/translate/repo/stages/discover_unit_arguments.h"
#include "worker/translate/repo/stages/make_patch.h"
#include "worker/translate/repo/stages/parse_sources.h"
#include "worker/translate/repo/stages/plan_translation.h"
#include "worker/translate/repo/stages/rewrite_build_files.h"
#include "worker/translate/repo/stages/write_output_tree.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

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

// The stages in the order they run (each in stages/<name>.cc; docs/architecture.md lists them).
const std::vector<std::pair<std::string_view, MigrationStage>>& RepositoryMigrator::Stages() {
  static const std::vector<std::pair<std::string_view, MigrationStage>> kStages = {
      {"CheckTrees", &CheckTrees},
      {"CollectFiles", &CollectFiles},
      {"PlanTranslation", &PlanTranslation},
      {"DiscoverUnitArguments", &DiscoverUnitArguments},
      {"CreateTranslatorAndAnalyzer", &CreateTranslatorAndAnalyzer},
      {"ParseSources", &ParseSources},
      {"AnalyzeSources", &AnalyzeSources},
      {"ComposeTranslations", &ComposeTranslations},
      {"RewriteBuildFiles", &RewriteBuildFiles},
      {"WriteOutputTree", &WriteOutputTree},
      {"CollectFindings", &CollectFindings},
      {"MakePatch", &MakePatch},
  };
  return kStages;
}

absl::StatusOr<MigrationResult> RepositoryMigrator::Run(const fs::path& input_root, const fs::path& output_root,
                                                        const MigrationOptions& options,
                                                        const ProgressCallback& progress) {
  const MigrationTools tools{.launcher = launcher_,
                             .translator_factory = translator_factory_,
                             .analyzer_factory = analyzer_factory_,
                             .effort_estimator = effort_estimator_,
                             .rewriters = rewriters_};
  std::vector<Pipeline<MigrationState>::NamedStage> stages;
  for (const auto& [name, stage] : Stages()) {
    stages.push_back({name, [stage = stage, &tools](MigrationState& state) { return stage(state, tools); }});
  }
  const Pipeline<MigrationState> pipeline("repository pass", std::move(stages));
  MigrationState state(input_root, output_root, options, progress);
  if (absl::Status status = pipeline.Run(state); !status.ok()) return status;
  return std::move(state.result);
}

}  // namespace hipforge::translate
