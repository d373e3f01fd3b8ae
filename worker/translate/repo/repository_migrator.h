#pragma once
// The repository pass as a class: its collaborators (process launcher, translator and analyzer factories,
// rewriter registry) come in through the constructor. MigrateRepository() wires the production ones.
#include <functional>
#include <memory>

#include "common/process.h"
#include "worker/translate/repo/repository_migration.h"
#include "worker/translate/repo/rewriter_registry.h"

namespace hipforge::translate {

using TranslatorFactory = std::function<absl::StatusOr<std::unique_ptr<SourceTranslator>>(TranslateOptions)>;
using AnalyzerFactory = std::function<absl::StatusOr<std::unique_ptr<Analyzer>>(AnalyzeOptions)>;
using EffortEstimator =
    std::function<EffortEstimate(const std::vector<Finding>&, const std::vector<FileTranslation>&)>;

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

  absl::StatusOr<MigrationResult> Run(const std::filesystem::path& input_root,
                                      const std::filesystem::path& output_root, const MigrationOptions& options,
                                      const ProgressCallback& progress);

 private:
  ProcessLauncher& launcher_;
  TranslatorFactory translator_factory_;
  AnalyzerFactory analyzer_factory_;
  EffortEstimator effort_estimator_;
  RewriterRegistry rewriters_;
};

}  // namespace hipforge::translate
