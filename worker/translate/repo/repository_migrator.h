#pragma once
// The repository pass as a class: its collaborators (process launcher, translator and analyzer factories,
// rewriter registry) come in through the constructor. MigrateRepository() wires the production ones. Run is
// the list of stages in Stages() run as a Pipeline (common/pipeline.h), each a function over one MigrationState
// (stages/migration_state.h).
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "common/process.h"
#include "worker/translate/repo/migration_types.h"
#include "worker/translate/repo/rewriter_registry.h"
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

// The factories this binary was built with: the real translator/analyzer when their targets exist, else
// factories that return Unavailable with the reason.
TranslatorFactory DefaultTranslatorFactory();
AnalyzerFactory DefaultAnalyzerFactory();
EffortEstimator DefaultEffortEstimator();

class RepositoryMigrator {
 public:
  RepositoryMigrator(ProcessLauncher& launcher, TranslatorFactory translator_factory, AnalyzerFactory analyzer_factory,
                     EffortEstimator effort_estimator, RewriterRegistry rewriters)
      : launcher_(launcher),
        translator_factory_(std::move(translator_factory)),
        analyzer_factory_(std::move(analyzer_factory)),
        effort_estimator_(std::move(effort_estimator)),
        rewriters_(std::move(rewriters)) {}

  absl::StatusOr<MigrationResult> Run(const std::filesystem::path& input_root, const std::filesystem::path& output_root,
                                      const MigrationOptions& options, const ProgressCallback& progress);

  // The stages Run runs, in order, by name.
  static const std::vector<std::pair<std::string_view, MigrationStage>>& Stages();

 private:
  ProcessLauncher& launcher_;
  TranslatorFactory translator_factory_;
  AnalyzerFactory analyzer_factory_;
  EffortEstimator effort_estimator_;
  RewriterRegistry rewriters_;
};

}  // namespace hipforge::translate
