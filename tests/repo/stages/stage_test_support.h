#pragma once
// What the repository-pass stage tests share: a state over a small tree written by the test, the tools with
// fakes of the translator, the analyzer and the process launcher, and the progress events a stage reported.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "tests/repo/repo_test_support.h"
#include "tests/support/recording_launcher.h"
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate::testing {

using ::hipforge::testing::RecordingLauncher;

// Records what it was asked; Compose turns each file into "// hip\n" + its path, Translate answers `snippet`.
class FakeTranslator final : public SourceTranslator {
 public:
  absl::StatusOr<ParsedSources> Parse(const std::filesystem::path& root,
                                      const std::vector<std::filesystem::path>& files, ParseCompanion* companion,
                                      const ProgressCallback&) override {
    ++parse_calls;
    parsed_files = files;
    parse_companion = companion;
    if (!parse_error.ok()) return parse_error;
    return ParsedSources{root, files, nullptr};
  }
  absl::StatusOr<std::vector<FileTranslation>> Compose(const ParsedSources& parsed, const EditsByFile& extra_edits,
                                                       const ProgressCallback&) override {
    composed_edits = extra_edits;
    std::vector<FileTranslation> out;
    for (const auto& file : parsed.files) {
      FileTranslation translation;
      translation.path = file.generic_string();
      translation.output = "// hip\n" + translation.path;
      translation.status = FileStatus::kTranslated;
      out.push_back(std::move(translation));
    }
    return out;
  }
  absl::StatusOr<std::vector<FileTranslation>> Translate(const std::filesystem::path& root,
                                                         const std::vector<std::filesystem::path>& files,
                                                         const EditsByFile&, const ProgressCallback&) override {
    translated_source = ReadText(root / files.front());
    return std::vector<FileTranslation>{snippet};
  }

  int parse_calls = 0;
  std::vector<std::filesystem::path> parsed_files;
  ParseCompanion* parse_companion = nullptr;
  absl::Status parse_error;
  EditsByFile composed_edits;
  FileTranslation snippet;
  std::string translated_source;
};

class FakeCompanion final : public ParseCompanion {
 public:
  std::string CacheSalt() const override { return "fake"; }
  std::unique_ptr<CompanionConsumer> ConsumerFor(const std::filesystem::path&) override { return nullptr; }
  bool Restore(const std::filesystem::path&, const nlohmann::json&) override { return false; }
};

// Answers `result` and records the files and the companion it was given.
class FakeAnalyzer final : public Analyzer {
 public:
  absl::StatusOr<AnalysisResult> Analyze(const std::filesystem::path&, const std::vector<std::filesystem::path>& files,
                                         const ProgressCallback&, ParseCompanion* shared) override {
    analyzed_files = files;
    analyze_companion = shared;
    if (!error.ok()) return error;
    return result;
  }
  std::unique_ptr<ParseCompanion> MakeParseCompanion(const std::filesystem::path&) override {
    auto companion = std::make_unique<FakeCompanion>();
    made_companion = companion.get();
    return companion;
  }
  AnalysisResult result;
  absl::Status error;
  std::vector<std::filesystem::path> analyzed_files;
  ParseCompanion* analyze_companion = nullptr;
  ParseCompanion* made_companion = nullptr;
};

// A state whose input tree is `in/` and output tree `out/` of a private temp dir, already checked
// (CheckTrees' output made), with tools whose factories fail unless a test sets them.
class StageTest : public ::testing::Test {
 protected:
  StageTest() : state_(temp_.path() / "in", temp_.path() / "out", options_, progress_) {
    std::filesystem::create_directories(temp_.path() / "in");
    state_.trees.emplace(CheckedTrees{.input = std::filesystem::weakly_canonical(temp_.path() / "in"),
                                      .output = std::filesystem::weakly_canonical(temp_.path() / "out")});
    // Every later stage's output present and empty: a test sets only the parts its stage reads (the stage under test
    // makes its own output afresh).
    state_.files.emplace();
    state_.plan.emplace();
    state_.unit_arguments.emplace();
    state_.engines.emplace();
    state_.parse.emplace();
    state_.analysis.emplace();
    state_.translations.emplace();
    state_.rewrites.emplace();
  }

  void Write(const std::string& relative, const std::string& content) {
    const std::filesystem::path path = state_.trees->input / relative;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }
  // A file as CollectFiles leaves it in the state (without touching the disk).
  void Add(const std::string& relative, RepoFileKind kind, const std::string& content) {
    state_.files->kinds[relative] = kind;
    state_.files->contents[relative] = content;
  }
  MigrationTools Tools() {
    return MigrationTools{.launcher = launcher_,
                          .translator_factory = translator_factory_,
                          .analyzer_factory = analyzer_factory_,
                          .effort_estimator = effort_estimator_,
                          .rewriters = rewriters_};
  }

  TempDir temp_;
  MigrationOptions options_;
  std::vector<ProgressEvent> events_;
  ProgressCallback progress_ = [this](const ProgressEvent& event) { events_.push_back(event); };
  MigrationState state_;
  RecordingLauncher launcher_;
  TranslatorFactory translator_factory_ = [](TranslateOptions) -> absl::StatusOr<std::unique_ptr<SourceTranslator>> {
    return absl::UnavailableError("no translator in this test");
  };
  AnalyzerFactory analyzer_factory_ = [](AnalyzeOptions) -> absl::StatusOr<std::unique_ptr<Analyzer>> {
    return absl::UnavailableError("no analyzer in this test");
  };
  EffortEstimator effort_estimator_;
  RewriterRegistry rewriters_;
};

}  // namespace hipforge::translate::testing
