// Recall and false positives of the whole analyzer on tests/analyze/corpus: small kernels, host code, build
// files and scripts written the way projects write them, with every expected finding labelled in
// tests/analyze/corpus_labels.txt ("path:line RULE"). A finding matches a label by path, line and rule; any
// other finding is a false positive. The bar is the issue's: recall >= 0.90 with at most 2 false positives.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>

#include "tests/analyze/test_support.h"

namespace hipforge::translate {
namespace {

using Key = std::tuple<std::string, uint32_t, std::string>;  // path, line, rule

std::set<Key> Labels() {
  std::set<Key> labels;
  std::istringstream lines(testing::ReadText(testing::SourceDir() / "tests/analyze/corpus_labels.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    const size_t colon = line.rfind(':', space);
    labels.emplace(line.substr(0, colon), std::stoul(line.substr(colon + 1, space - colon - 1)),
                   line.substr(space + 1));
  }
  return labels;
}

std::vector<std::filesystem::path> CorpusFiles(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files.push_back(std::filesystem::relative(entry.path(), root));
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(AnalyzerCorpus, RecallAtLeast90PercentWithAtMostTwoFalsePositives) {
  const auto root = testing::SourceDir() / "tests/analyze/corpus";
  const std::set<Key> labels = Labels();
  ASSERT_GE(labels.size(), 100u);
  const auto files = CorpusFiles(root);
  ASSERT_GE(files.size(), 40u);

  AnalyzeOptions options;
  options.jobs = 2;
  auto analyzer = CreateAnalyzer(options);
  ASSERT_TRUE(analyzer.ok()) << analyzer.status();
  auto result = (*analyzer)->Analyze(root, files, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();

  std::set<Key> found;
  for (const Finding& finding : result->findings) {
    found.emplace(finding.location.path, finding.location.line, finding.rule_id);
  }
  std::map<std::string, std::pair<int, int>> per_rule;  // rule -> (labelled, found among them)
  std::ostringstream report;
  size_t true_positives = 0;
  for (const Key& label : labels) {
    const bool hit = found.count(label) > 0;
    true_positives += hit;
    auto& [labelled, matched] = per_rule[std::get<2>(label)];
    ++labelled;
    matched += hit;
    if (!hit)
      report << "  missed " << std::get<0>(label) << ":" << std::get<1>(label) << " " << std::get<2>(label) << "\n";
  }
  size_t false_positives = 0;
  for (const Key& key : found) {
    if (labels.count(key)) continue;
    ++false_positives;
    report << "  false positive " << std::get<0>(key) << ":" << std::get<1>(key) << " " << std::get<2>(key) << "\n";
  }
  const double recall = static_cast<double>(true_positives) / static_cast<double>(labels.size());
  std::ostringstream table;
  for (const auto& [rule, counts] : per_rule) table << " " << rule << " " << counts.second << "/" << counts.first;
  std::cout << "corpus: " << files.size() << " files, " << labels.size() << " labelled findings, recall " << recall
            << ", false positives " << false_positives << "\n  per rule:" << table.str() << "\n"
            << report.str();
  EXPECT_GE(recall, 0.90) << report.str();
  EXPECT_LE(false_positives, 2u) << report.str();
}

}  // namespace
}  // namespace hipforge::translate
