#include "tests/common/report_schema_check.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace hipforge::testing {

::testing::AssertionResult MatchesReportSchema(const nlohmann::json& report) {
  namespace fs = std::filesystem;
  std::random_device random;
  const fs::path file = fs::temp_directory_path() / ("hipforge-report-" + std::to_string(random()) + ".json");
  {
    std::ofstream out(file);
    out << report.dump(2);
  }
  const std::string command = std::string("python3 ") + HIPFORGE_REPORT_SCHEMA_CHECK + " " + file.string() + " 2>&1";
  std::string output;
  int status = -1;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
    status = pclose(pipe);
  }
  std::error_code ignored;
  fs::remove(file, ignored);
  if (status == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "report does not match docs/report-schema.json (exit " << status << "):\n"
                                       << output << "\nreport: " << report.dump().substr(0, 2000);
}

}  // namespace hipforge::testing
