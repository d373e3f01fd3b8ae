// hipforge-analyze: runs the analyzer over a directory tree and prints findings (text or JSON). A developer
// driver for corpus measurements; users get the same through `migrate-cli analyze`.
//   hipforge-analyze [--json] [--jobs N] [--no-parse] [--annotate] [--disable HB203,...] ROOT [FILE...]
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/analyze/findings_json.h"

namespace {

// Files under `root` (hidden directories but .github skipped), or an error naming the path that failed.
std::vector<std::filesystem::path> ListFiles(const std::filesystem::path& root, std::error_code& error) {
  std::vector<std::filesystem::path> files;
  auto it = std::filesystem::recursive_directory_iterator(root, error);
  for (; !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_directory() && it->path().filename().string().rfind('.', 0) == 0 && it->path().filename() != ".github") {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code size_error;
    if (it->is_regular_file() && it->file_size(size_error) < (4 << 20) && !size_error) {
      files.push_back(std::filesystem::relative(it->path(), root));
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Run the analyzer over a directory tree and print its findings"};
  hipforge::translate::AnalyzeOptions options;
  bool json = false, no_parse = false;
  std::string root;
  std::vector<std::string> listed;
  app.add_flag("--json", json, "print findings, files and effort as JSON");
  app.add_option("--jobs", options.jobs, "parallel parses (0: one per core)")->check(CLI::NonNegativeNumber);
  app.add_flag("--no-parse", no_parse, "token and line rules only (no Clang parse)");
  app.add_flag("--annotate", options.annotate, "also make source annotations");
  app.add_option("--disable", options.disabled_rules, "rule ids to turn off (HB203,HB401)")->delimiter(',');
  app.add_option("root", root, "directory tree to analyse")->required()->check(CLI::ExistingDirectory);
  app.add_option("files", listed, "files under ROOT (default: every file)");
  CLI11_PARSE(app, argc, argv);
  options.parse_sources = !no_parse;

  std::vector<std::filesystem::path> files(listed.begin(), listed.end());
  if (files.empty()) {
    std::error_code error;
    files = ListFiles(root, error);
    if (error) {
      std::cerr << "hipforge-analyze: cannot list " << root << ": " << error.message() << "\n";
      return 1;
    }
  }
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
    nlohmann::json out{
        {"findings", hipforge::translate::FindingsToJson(result->findings)},
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
              << hipforge::report::SeverityName(finding.severity) << ": " << finding.rule_id << ": " << finding.message
              << (finding.edits.empty() ? "" : " [fixable]") << "\n";
  }
  return 0;
}
