#pragma once
// The repository pass as a list of stages over one MigrationState (RepositoryMigrator::Run runs them in
// order as a Pipeline, common/pipeline.h). Each stage reads the outputs of the stages before it and fills in its
// own (a StageOutput, read before its stage ran is an error naming the stage); each lives in its own file under
// stages/ with its own test under tests/repo/stages/.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "common/pipeline.h"
#include "common/process.h"
#include "worker/translate/frontend/unit_parser.h"
#include "worker/translate/repo/build_file_rewriter.h"
#include "worker/translate/repo/migration_types.h"
#include "worker/translate/repo/rewriter_registry.h"

namespace hipforge::translate {

using TranslatorFactory = std::function<absl::StatusOr<std::unique_ptr<SourceTranslator>>(TranslateOptions)>;
using AnalyzerFactory = std::function<absl::StatusOr<std::unique_ptr<Analyzer>>(AnalyzeOptions)>;
using EffortEstimator = std::function<EffortEstimate(const std::vector<Finding>&, const std::vector<FileTranslation>&)>;

// The pass's collaborators (RepositoryMigrator's constructor arguments), handed to every stage.
struct MigrationTools {
  ProcessLauncher& launcher;
  const TranslatorFactory& translator_factory;
  const AnalyzerFactory& analyzer_factory;
  const EffortEstimator& effort_estimator;  // empty: findings are only counted by severity
  const RewriterRegistry& rewriters;
};

// A private temporary directory, removed with everything in it when the pass ends.
class ScratchDirectory {
 public:
  ScratchDirectory();
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// What each stage makes for the later ones (MigrationState holds one StageOutput of each, named by its stage).

// CheckTrees: both trees, canonical.
struct CheckedTrees {
  std::filesystem::path input;
  std::filesystem::path output;
};
// CollectFiles: every regular file of the input (relative path -> bytes, kind); symlinks apart. PlanTranslation
// re-files a C++ source that includes a CUDA header as kCppSource.
struct CollectedFiles {
  std::map<std::string, std::string> contents;
  std::map<std::string, RepoFileKind> kinds;
  std::vector<std::string> symlinks;
};
// PlanTranslation: what the translator gets, what stays CUDA, what the rewriters need to know (RewriteBuildFiles
// adds the context's snippet translator).
struct TranslationPlan {
  std::set<std::string> extension_sources;  // PyTorch extension sources: kept as CUDA
  RewriteContext context;
  std::vector<std::filesystem::path> to_translate;
  std::vector<std::string> needs_translator;  // files that use CUDA
};
// DiscoverUnitArguments: the translator's options, with the compile commands the project's build gives.
struct UnitArguments {
  TranslateOptions translate_options;
  std::optional<ScratchDirectory> scratch;  // holds the discovered compile_commands.json for the whole pass
};
// CreateTranslatorAndAnalyzer: both with one set of compile arguments.
struct TranslatorAndAnalyzer {
  std::unique_ptr<SourceTranslator> translator;  // null when none could be made and no file needs one
  std::unique_ptr<Analyzer> analyzer;            // null: findings incomplete (noted in result.notes)
};
// ParseSources: one parse per unit and configuration, the analyzer riding on it.
struct ParsedUnits {
  std::unique_ptr<ParseCompanion> companion;  // null without an analyzer
  std::optional<ParsedSources> parsed;        // none without a translator or anything to translate
};
// AnalyzeSources: findings in the original sources and their safe fixes (ComposeTranslations marks the fixes it
// applied; CollectFindings takes the findings).
struct SourceAnalysis {
  std::vector<Finding> findings;
  std::vector<AnalyzedFile> files;  // with the lines the build's preprocessing drops
  EditsByFile annotations;          // `// HIPFORGE HBxxx:` comments, only with options.annotate
};
// ComposeTranslations: the translated CUDA sources and headers, by relative path (CollectFindings takes them).
struct ComposedTranslations {
  std::map<std::string, FileTranslation> by_path;
};
// RewriteBuildFiles: build files, scripts, containers, CI, Python.
struct BuildFileRewrites {
  std::map<std::string, RewriteResult> by_path;
  std::set<std::string> cached;  // paths whose rewrite came from the cache
};

// Everything one pass knows: its arguments, each stage's output in the order the stages run, and the result.
struct MigrationState {
  MigrationState(std::filesystem::path input_root, std::filesystem::path output_root, const MigrationOptions& options,
                 const ProgressCallback& progress)
      : input_root(std::move(input_root)), output_root(std::move(output_root)), options(options), progress(progress) {}

  // The call's arguments.
  std::filesystem::path input_root;
  std::filesystem::path output_root;
  const MigrationOptions& options;
  const ProgressCallback& progress;

  StageOutput<CheckedTrees> trees{"CheckTrees"};
  StageOutput<CollectedFiles> files{"CollectFiles"};
  StageOutput<TranslationPlan> plan{"PlanTranslation"};
  StageOutput<UnitArguments> unit_arguments{"DiscoverUnitArguments"};
  StageOutput<TranslatorAndAnalyzer> engines{"CreateTranslatorAndAnalyzer"};
  StageOutput<ParsedUnits> parse{"ParseSources"};
  StageOutput<SourceAnalysis> analysis{"AnalyzeSources"};
  StageOutput<ComposedTranslations> translations{"ComposeTranslations"};
  StageOutput<BuildFileRewrites> rewrites{"RewriteBuildFiles"};
  // Notes from any stage; WriteOutputTree, CollectFindings and MakePatch fill in the rest.
  MigrationResult result;

  void Report(const std::string& stage, int done, int total, const std::string& message) const {
    if (progress) progress({stage, done, total, message});
  }
};

// A stage: OkStatus lets the pass go on; an error ends it with that error.
using MigrationStage = absl::Status (*)(MigrationState& state, const MigrationTools& tools);

// Files the source translator takes (CUDA sources, headers, C++ sources).
bool IsTranslatableKind(RepoFileKind kind);

}  // namespace hipforge::translate
