#include "tests/analyze/test_support.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace hipforge::translate::testing {

std::filesystem::path SourceDir() { return HIPFORGE_SOURCE_DIR; }

std::filesystem::path RuleDir(const std::string& rule_id) { return SourceDir() / "tests/analyze/rules" / rule_id; }

std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> GoldenInputs(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> inputs;
  // Sub-directories too (HB505's golden has a build file one level down).
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    if (name == "expected.txt" || name == "compile.skip" || name.rfind("fixed.", 0) == 0) continue;
    inputs.push_back(std::filesystem::relative(entry.path(), dir));
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

std::set<std::string> ExpectedFindings(const std::filesystem::path& dir) {
  std::set<std::string> expected;
  std::istringstream lines(ReadText(dir / "expected.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colons = std::count(line.begin(), line.end(), ':');
    expected.insert(colons >= 2 ? line : "input.cu:" + line);
  }
  return expected;
}

std::set<std::string> FindingKeys(const std::vector<Finding>& findings) {
  std::set<std::string> keys;
  for (const Finding& finding : findings) {
    keys.insert(finding.location.path + ":" + std::to_string(finding.location.line) + ":" +
                std::to_string(finding.location.column) + " " + finding.rule_id);
  }
  return keys;
}

std::string ApplyEdits(std::string text, std::vector<TextEdit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const TextEdit& a, const TextEdit& b) { return a.offset > b.offset; });
  for (const TextEdit& edit : edits) text.replace(edit.offset, edit.length, edit.replacement);
  return text;
}

AnalysisResult AnalyzeDir(const std::filesystem::path& dir, AnalyzeOptions options) {
  options.jobs = 1;
  auto analyzer = CreateAnalyzer(options);
  EXPECT_TRUE(analyzer.ok()) << analyzer.status();
  auto result = (*analyzer)->Analyze(dir, GoldenInputs(dir), nullptr);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : AnalysisResult{};
}

}  // namespace hipforge::translate::testing
