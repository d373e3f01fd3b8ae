#pragma once
// A scratch repository tree for the translator's parse tests: base_/tree (canonical, written file by file) with the
// frontend's shim and PCH directories beside it, all removed after the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {

class TempTreeTest : public ::testing::Test {
 protected:
  void MakeTree(const std::string& name) {
    base_ =
        std::filesystem::temp_directory_path() / ("hipforge-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(base_ / "tree");
    root_ = std::filesystem::canonical(base_ / "tree");
  }
  void TearDown() override {
    if (!base_.empty()) std::filesystem::remove_all(base_);
  }
  void Write(const std::string& relative, const std::string& text) {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative, std::ios::binary) << text;
  }
  // Two parse threads, the shims and PCHs under base_.
  TranslateOptions TreeOptions() const {
    TranslateOptions options;
    options.jobs = 2;
    options.frontend.shim_directory = base_ / "shims";
    options.pch_directory = base_ / "pch";
    return options;
  }

  // The repository pass's engines for the tree: the translator, the analyzer (one thread, the tree's unit
  // arguments) and the analyzer's companion the translator parses with.
  struct Engines {
    std::unique_ptr<SourceTranslator> translator;
    std::unique_ptr<Analyzer> analyzer;
    std::unique_ptr<ParseCompanion> companion;
  };
  Engines MakeEngines(const TranslateOptions& options, AnalyzeOptions analyze = {}) const {
    Engines engines;
    auto translator = CreateSourceTranslator(options);
    EXPECT_TRUE(translator.ok()) << translator.status();
    analyze.jobs = 1;
    analyze.frontend = options.frontend;
    auto lookup = MakeUnitArgumentLookup(options, root_);
    EXPECT_TRUE(lookup.ok()) << lookup.status();
    if (lookup.ok()) analyze.unit_arguments = *lookup;
    auto analyzer = CreateAnalyzer(analyze);
    EXPECT_TRUE(analyzer.ok()) << analyzer.status();
    if (!translator.ok() || !analyzer.ok()) return engines;
    engines.translator = std::move(*translator);
    engines.analyzer = std::move(*analyzer);
    engines.companion = engines.analyzer->MakeParseCompanion(root_);
    return engines;
  }
  // One line per translator diagnostic and per analyzer finding, for comparing runs.
  static std::string DiagnosticLine(const std::string& path, const Finding& finding) {
    return path + " " + finding.rule_id + " " + std::to_string(finding.location.line) + ":" +
           std::to_string(finding.location.column) + " " + finding.message;
  }
  static std::string FindingLine(const Finding& finding) {
    return finding.rule_id + " " + finding.location.path + ":" + std::to_string(finding.location.line) + ":" +
           std::to_string(finding.location.column) + " " + finding.message;
  }

  std::filesystem::path base_, root_;
};

}  // namespace hipforge::translate
