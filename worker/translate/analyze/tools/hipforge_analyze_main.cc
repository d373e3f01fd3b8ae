// hipforge-analyze: runs the analyzer over a directory tree and prints findings (text or JSON). A developer
// driver for corpus measurements; users get the same through `migrate-cli analyze`.
//   hipforge-analyze [--json] [--jobs N] [--no-parse] [--disable HB203,...] ROOT [FILE...]
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/analyze/findings_json.h"

namespace {

std::vector<std::filesystem::path> ListFiles(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  for (auto it = std::filesystem::recursive_directory_iterator(root); it != std::filesystem::recursive_directory_iterator(); ++it) {
    if (it->is_directory() && it->path().filename().string().rfind('.', 0) == 0 && it->path().filename() != ".github") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->file_size() < (4 << 20)) files.push_back(std::filesystem::relative(it->path(), root));
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  hipforge::translate::AnalyzeOptions options;
  bool json = false;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      json = true;
    } else if (arg == "--jobs" && i + 1 < argc) {
      options.jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (arg == "--no-parse") {
      options.parse_sources = false;
    } else if (arg == "--annotate") {
      options.annotate = true;
    } else if (arg == "--disable" && i + 1 < argc) {
      std::string list = argv[++i];
      for (size_t start = 0; start <= list.size();) {
        const size_t comma = list.find(',', start);
        options.disabled_rules.push_back(list.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) {
    std::cerr << "usage: hipforge-analyze [--json] [--jobs N] [--no-parse] [--disable IDS] ROOT [FILE...]\n";
    return 2;
  }
  const std::filesystem::path root = positional[0];
  std::vector<std::filesystem::path> files(positional.begin() + 1, positional.end());
  if (files.empty()) files = ListFiles(root);
  auto analyzer = hipforge::translate::CreateAnalyzer(options);
  if (!analyzer.ok()) {
    std::cerr << analyzer.status() << "\n";
    return 1;
  }
  auto result = (*analyzer)->Analyze(root, files, [](const hipforge::translate::ProgressEvent& event) {
    std::cerr << "[" << event.done << "/" << event.total << "] " << event.message << "\n";
  });
  if (!result.ok()) {
    std::cerr << result.status() << "\n";
    return 1;
  }
  if (json) {
    nlohmann::json out{{"findings", hipforge::translate::FindingsToJson(result->findings)},
                       {"files", hipforge::translate::AnalyzedFilesToJson(result->files)},
                       {"effort", hipforge::translate::EffortToJson(hipforge::translate::EstimateEffort(result->findings, {}))}};
    std::cout << out.dump(1) << "\n";
    return 0;
  }
  for (const auto& file : result->files) {
    if (!file.ast_analyzed && file.ast_skipped_reason.rfind("AST rules skipped, Clang", 0) == 0) {
      std::cout << file.path << ": note: " << file.ast_skipped_reason << "\n";
    }
  }
  for (const auto& finding : result->findings) {
    std::cout << finding.location.path << ":" << finding.location.line << ":" << finding.location.column << ": "
              << hipforge::translate::SeverityName(finding.severity) << ": " << finding.rule_id << ": "
              << finding.message << (finding.edits.empty() ? "" : " [fixable]") << "\n";
  }
  return 0;
}
