// WriteReport (client/lib/report_output.h): the render-write-gate tail shared by report, analyze,
// translate and submit --report; BuildFailureVerdict and the text report's failed-build lines.
#include "client/lib/report_output.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/report/report_json.h"

#include "client/lib/exit_codes.h"

namespace hipforge::client {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The report as its readers receive it, read once (report::ReadReportDocument); every report here is well formed.
ReportDocument Doc(const nlohmann::json& report) { return report::ReadReportDocument(report).value(); }

nlohmann::json ReportWithFindings() {
  return {{"findings",
           {{{"rule_id", "HB101"},
             {"severity", "warning"},
             {"path", "src/a.cu"},
             {"line", 3},
             {"column", 1},
             {"message", "warp size"},
             {"fix", ""},
             {"auto_fixed", false}}}}};
}

TEST(WriteReportTest, WritesToStdoutAndGatesOnFindings) {
  std::ostringstream out, err;
  ReportOutputOptions options{.format = ReportFormat::kJson, .fail_on = FailOn::kWarning, .fail_on_name = "warning"};
  absl::StatusOr<int> code = WriteReport(Doc(ReportWithFindings()), options, out, err);
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_EQ(*code, kExitFindings);
  EXPECT_EQ(nlohmann::json::parse(out.str())["findings"].size(), 1u);
  EXPECT_THAT(err.str(), HasSubstr("1 finding(s) at or above --fail-on warning"));

  std::ostringstream out2, err2;
  options.fail_on = FailOn::kError;
  options.fail_on_name = "error";
  EXPECT_EQ(*WriteReport(Doc(ReportWithFindings()), options, out2, err2), kExitOk);
  EXPECT_TRUE(err2.str().empty());
}

TEST(WriteReportTest, WritesTheFileAndFailsWhenItCannot) {
  const auto path = std::filesystem::temp_directory_path() / ("report-output-" + std::to_string(::getpid()) + ".txt");
  std::ostringstream out, err;
  ReportOutputOptions options{.format = ReportFormat::kText, .output_path = path.string()};
  ASSERT_EQ(*WriteReport(Doc(ReportWithFindings()), options, out, err), kExitOk);
  EXPECT_TRUE(out.str().empty());
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("[HB101]"));
  std::filesystem::remove(path);

  options.output_path = "/nonexistent-dir/report.txt";
  absl::StatusOr<int> failed = WriteReport(Doc(ReportWithFindings()), options, out, err);
  EXPECT_FALSE(failed.ok());
}

// A server's report that cannot be read (an enum value this build does not know) is an error naming the field, not a
// crash; an absent one is a report with no section yet.
TEST(ReadServerReportTest, AMalformedReportIsAClearError) {
  hipforge::v1::ReportDocument sent;
  sent.mutable_builds()->add_items()->set_requested_arch("gfx90a");
  sent.mutable_tests()->add_items()->set_status(static_cast<hipforge::v1::TestStatus>(42));
  absl::StatusOr<ReportDocument> wrong = ReadServerReport(sent);
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(wrong.status().message(),
            "the server's report cannot be read: report $.tests[0].status has the unknown value 42");
  EXPECT_EQ(ExitCodeForStatus(wrong.status()), kExitInternal);

  absl::StatusOr<ReportDocument> empty = ReadServerReport(hipforge::v1::ReportDocument());
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_FALSE(empty->report.findings.has_value());
  EXPECT_FALSE(empty->gate.has_value());
  // The job id the command was answered with, for a report without one; a report's own is kept.
  EXPECT_EQ(ReadServerReport(hipforge::v1::ReportDocument(), "job-1")->report.job_id, "job-1");
  EXPECT_EQ(ReadServerReport(hipforge::v1::ReportDocument(), "job-1")->json["job_id"], "job-1");
  hipforge::v1::ReportDocument own;
  own.set_job_id("own");
  EXPECT_EQ(ReadServerReport(own, "job-1")->report.job_id, "own");
}

TEST(BuildFailureVerdictTest, NamesFailedBuildsAndTheTextReportShowsWhy) {
  const nlohmann::json report = {
      {"job_id", "j1"},
      {"builds",
       {{{"requested_arch", "gfx90a"},
         {"arch", "gfx90a"},
         {"ok", false},
         {"duration_ms", 1000},
         {"errors", {{{"path", ""}, {"line", 0}, {"message", "cmake build exited 1"}}}},
         {"log_excerpt", "clang: error: unsupported option '--use_fast_math'\n"}},
        {{"requested_arch", "gfx942"},
         {"arch", "gfx940"},
         {"ok", false},
         {"duration_ms", 900},
         {"note", "nearest target gfx940"}},
        {{"requested_arch", "gfx908"}, {"arch", "gfx908"}, {"ok", true}, {"duration_ms", 900}}}}};
  EXPECT_EQ(BuildFailureVerdict(Doc(report).report), "build failed for gfx90a, gfx942 (built as gfx940)");
  EXPECT_EQ(BuildFailureVerdict(Doc(ReportWithFindings()).report), "");

  const std::string text = RenderText(Doc(report));
  EXPECT_THAT(text, HasSubstr("Verdict: failed: build failed for gfx90a, gfx942 (built as gfx940)"));
  EXPECT_THAT(text, HasSubstr("| clang: error: unsupported option '--use_fast_math'"));
  EXPECT_THAT(text, HasSubstr("note: nearest target gfx940"));
  // Always said, also when nothing was built (issue 26: a verdict in every output).
  EXPECT_THAT(RenderText(Doc(ReportWithFindings())), HasSubstr("Verdict: translated only"));
}

// The verdict says what a job proved: a compile-only worker's report "builds" and names what was not proved,
// never passed; tests that ran on the NVIDIA pool "behaviour checked" there, with AMD hardware not proved.
TEST(VerdictTest, SaysWhatWasProvedAndWhatWasNot) {
  report::Report compile_only;
  compile_only.builds = std::vector<report::BuildResult>{{.requested_arch = "gfx942", .arch = "gfx942", .ok = true}};
  compile_only.tests =
      std::vector<report::TestResult>{{.name = "vector_stats_small", .status = report::TestStatus::kNotRun}};
  compile_only.gpu = report::GpuSection{.ran_on_gpu = false, .note = "not run on a GPU: compile-only worker"};
  report::Verdict builds = report::DecideVerdict(compile_only);
  EXPECT_EQ(builds.level, report::VerdictLevel::kBuilds);
  EXPECT_THAT(report::VerdictSentence(builds),
              HasSubstr("builds; not proved: tests: 1 not run (not run on a GPU: compile-only worker)"));

  report::Report nvidia = compile_only;
  nvidia.builds = std::vector<report::BuildResult>{{.requested_arch = "sm_90", .arch = "sm_90", .ok = true}};
  nvidia.tests = std::vector<report::TestResult>{{.name = "make run", .status = report::TestStatus::kPassed}};
  nvidia.gpu = report::GpuSection{.ran_on_gpu = true, .device_arch = "sm_90"};
  report::Verdict checked = report::DecideVerdict(nvidia);
  EXPECT_EQ(checked.level, report::VerdictLevel::kBehaviourChecked);
  EXPECT_EQ(checked.platform, "HIP's NVIDIA platform (sm_90)");
  EXPECT_THAT(report::VerdictSentence(checked), HasSubstr("not proved: parity"));
  EXPECT_THAT(report::VerdictSentence(checked), HasSubstr("AMD hardware"));

  nvidia.tests->push_back({.name = "large", .status = report::TestStatus::kTimedOut});
  EXPECT_EQ(report::VerdictSentence(report::DecideVerdict(nvidia)), "failed: 1 test failed");
  // Stored with the report and read back.
  nvidia.verdict = report::DecideVerdict(nvidia);
  absl::StatusOr<report::Report> round_trip = report::ReportFromJson(report::ToJson(nvidia));
  ASSERT_TRUE(round_trip.ok()) << round_trip.status();
  ASSERT_TRUE(round_trip->verdict.has_value());
  EXPECT_EQ(round_trip->verdict->level, report::VerdictLevel::kFailed);
}

// A test that fails with HIP and in its CUDA original (the automatic reference) is not a migration failure: the
// verdict names it among what was not proved; one that passes in CUDA and fails with HIP still fails the job.
TEST(VerdictTest, ATestFailingInTheCudaOriginalTooIsNotAMigrationFailure) {
  report::Report nvidia;
  nvidia.builds = std::vector<report::BuildResult>{{.requested_arch = "sm_90", .arch = "sm_90", .ok = true}};
  nvidia.gpu = report::GpuSection{.ran_on_gpu = true, .device_arch = "sm_90"};
  const report::ReferenceRun cuda_failed{.status = report::TestStatus::kFailed};
  const report::ReferenceRun cuda_passed{.status = report::TestStatus::kPassed};
  nvidia.tests = std::vector<report::TestResult>{
      {.name = "make run", .status = report::TestStatus::kPassed, .cuda = cuda_passed},
      {.name = "bscan: make run", .status = report::TestStatus::kFailed, .cuda = cuda_failed}};
  report::Verdict verdict = report::DecideVerdict(nvidia);
  EXPECT_EQ(verdict.level, report::VerdictLevel::kBehaviourChecked);
  EXPECT_THAT(report::VerdictSentence(verdict), HasSubstr("tests failing in the CUDA original too: bscan: make run"));
  EXPECT_FALSE(report::IsMigrationFailure(nvidia.tests->at(1)));

  nvidia.tests->at(1).cuda = cuda_passed;
  EXPECT_TRUE(report::IsMigrationFailure(nvidia.tests->at(1)));
  EXPECT_EQ(report::VerdictSentence(report::DecideVerdict(nvidia)), "failed: 1 test failed");
}

// JUnit and SARIF say what the verdict says: a test failing in the CUDA original too is skipped in JUnit (no CI
// failure), and SARIF's run carries the verdict.
TEST(VerdictTest, JUnitAndSarifAgreeWithTheVerdictOnTestsFailingInCudaToo) {
  report::Report nvidia;
  nvidia.builds = std::vector<report::BuildResult>{{.requested_arch = "sm_90", .arch = "sm_90", .ok = true}};
  nvidia.gpu = report::GpuSection{.ran_on_gpu = true, .device_arch = "sm_90"};
  nvidia.tests =
      std::vector<report::TestResult>{{.name = "make run", .arch = "sm_90", .status = report::TestStatus::kPassed},
                                      {.name = "groupnorm",
                                       .arch = "sm_90",
                                       .status = report::TestStatus::kFailed,
                                       .cuda = report::ReferenceRun{.status = report::TestStatus::kFailed}},
                                      {.name = "btree",
                                       .arch = "sm_90",
                                       .status = report::TestStatus::kFailed,
                                       .cuda = report::ReferenceRun{.status = report::TestStatus::kPassed}}};
  nvidia.verdict = report::DecideVerdict(nvidia);
  const nlohmann::json json = report::ToJson(nvidia);
  const std::string junit = RenderJUnit(Doc(json));
  EXPECT_THAT(junit, HasSubstr("fails in the CUDA original too: not a migration failure"));
  EXPECT_THAT(junit, HasSubstr("failures=\"1\"")) << junit;
  const nlohmann::json sarif = RenderSarif(Doc(json), RenderOptions{});
  EXPECT_EQ(sarif["runs"][0]["properties"]["hipforge.verdict"], "failed");
  EXPECT_THAT(sarif["runs"][0]["properties"]["hipforge.verdictSentence"].get<std::string>(),
              HasSubstr("failed: 1 test failed"));
}

}  // namespace
}  // namespace hipforge::client
