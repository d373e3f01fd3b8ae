// WriteReport (client/lib/report_output.h): the render-write-gate tail shared by report, analyze,
// translate and submit --report; BuildFailureVerdict and the text report's failed-build lines.
#include "client/lib/report_output.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "client/lib/exit_codes.h"

namespace hipforge::client {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

nlohmann::json ReportWithFindings() {
  return {{"findings",
           {{{"rule_id", "HB101"}, {"severity", "warning"}, {"path", "src/a.cu"}, {"line", 3}, {"column", 1},
             {"message", "warp size"}, {"fix", ""}, {"auto_fixed", false}}}}};
}

TEST(WriteReportTest, WritesToStdoutAndGatesOnFindings) {
  std::ostringstream out, err;
  ReportOutputOptions options{.format = ReportFormat::kJson, .fail_on = FailOn::kWarning, .fail_on_name = "warning"};
  absl::StatusOr<int> code = WriteReport(ReportWithFindings(), options, out, err);
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, kExitFindings);
  EXPECT_EQ(nlohmann::json::parse(out.str())["findings"].size(), 1u);
  EXPECT_THAT(err.str(), HasSubstr("1 finding(s) at or above --fail-on warning"));

  std::ostringstream out2, err2;
  options.fail_on = FailOn::kError;
  options.fail_on_name = "error";
  EXPECT_EQ(*WriteReport(ReportWithFindings(), options, out2, err2), kExitOk);
  EXPECT_TRUE(err2.str().empty());
}

TEST(WriteReportTest, WritesTheFileAndFailsWhenItCannot) {
  const auto path = std::filesystem::temp_directory_path() / ("report-output-" + std::to_string(::getpid()) + ".txt");
  std::ostringstream out, err;
  ReportOutputOptions options{.format = ReportFormat::kText, .output_path = path.string()};
  ASSERT_EQ(*WriteReport(ReportWithFindings(), options, out, err), kExitOk);
  EXPECT_TRUE(out.str().empty());
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("[HB101]"));
  std::filesystem::remove(path);

  options.output_path = "/nonexistent-dir/report.txt";
  absl::StatusOr<int> failed = WriteReport(ReportWithFindings(), options, out, err);
  EXPECT_FALSE(failed.ok());
}

TEST(BuildFailureVerdictTest, NamesFailedBuildsAndTheTextReportShowsWhy) {
  const nlohmann::json report = {
      {"job_id", "j1"},
      {"builds",
       {{{"requested_arch", "gfx90a"}, {"arch", "gfx90a"}, {"ok", false}, {"duration_ms", 1000},
         {"errors", {{{"path", ""}, {"line", 0}, {"message", "cmake build exited 1"}}}},
         {"log_excerpt", "clang: error: unsupported option '--use_fast_math'\n"}},
        {{"requested_arch", "gfx942"}, {"arch", "gfx940"}, {"ok", false}, {"duration_ms", 900},
         {"note", "nearest target gfx940"}},
        {{"requested_arch", "gfx908"}, {"arch", "gfx908"}, {"ok", true}, {"duration_ms", 900}}}}};
  EXPECT_EQ(BuildFailureVerdict(report), "build failed for gfx90a, gfx942 (built as gfx940)");
  EXPECT_EQ(BuildFailureVerdict(ReportWithFindings()), "");

  const std::string text = RenderText(report);
  EXPECT_THAT(text, HasSubstr("Verdict: build failed for gfx90a, gfx942 (built as gfx940)"));
  EXPECT_THAT(text, HasSubstr("| clang: error: unsupported option '--use_fast_math'"));
  EXPECT_THAT(text, HasSubstr("note: nearest target gfx940"));
  EXPECT_THAT(RenderText(ReportWithFindings()), Not(HasSubstr("Verdict")));
}

}  // namespace
}  // namespace hipforge::client
