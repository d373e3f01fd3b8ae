// The typed report: one serializer and parser that round-trip every section, totals with one definition,
// findings split into fixed and left, and JSON that docs/report-schema.json accepts.
#include "common/report/report_json.h"

#include <cmath>

#include <gtest/gtest.h>

#include "tests/common/report_fixture.h"
#include "tests/common/report_schema_check.h"

namespace hipforge::report {
namespace {

using nlohmann::json;
using testing::FullReport;

TEST(ReportJsonTest, EverySectionRoundTripsThroughTheOneSerializer) {
  const json first = ToJson(FullReport());
  absl::StatusOr<Report> parsed = ParseReport(first.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(ToJson(*parsed), first);
  EXPECT_TRUE(std::isinf(parsed->parity->at(0).max_abs_error));  // null in JSON
  EXPECT_TRUE(first["parity"][0]["max_abs_error"].is_null());
  EXPECT_FALSE(parsed->profile->at(1).cuda_baseline_ns.has_value());
  ASSERT_TRUE(parsed->tests->at(1).cuda.has_value());
  EXPECT_EQ(first["tests"][1]["cuda"]["status"], "failed");
  EXPECT_FALSE(first["tests"][0].contains("cuda")) << "no reference ran for it";
  EXPECT_EQ(first["builds"][0]["toolchain"], "hipcc 5.2.3 (Debian)");
  EXPECT_EQ(first["translation"]["files"][0]["left_for_person"], json::array());
  EXPECT_EQ(first["translation"]["files"][3]["left_for_person"][0], "check the HIP architectures");
}

TEST(ReportJsonTest, ProducedReportsMatchTheSchema) {
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(ToJson(FullReport())));
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(ToJson(Report{})));
  Report empty_sections;
  empty_sections.translation.emplace();
  empty_sections.findings.emplace();
  empty_sections.effort.emplace();
  empty_sections.builds.emplace();
  empty_sections.tests.emplace();
  empty_sections.parity.emplace();
  empty_sections.profile.emplace();
  empty_sections.gpu.emplace();
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(ToJson(empty_sections)));
}

TEST(ReportJsonTest, TheSchemaRejectsWhatTheParserRejects) {
  json bad = ToJson(FullReport());
  bad["tests"][0]["status"] = "exploded";
  EXPECT_FALSE(hipforge::testing::MatchesReportSchema(bad));
  absl::StatusOr<Report> parsed = ReportFromJson(bad);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(parsed.status().message().find("$.tests[0].status"), std::string::npos) << parsed.status();
  json wrong_type = ToJson(FullReport());
  wrong_type["translation"]["files"][1]["lines_changed"] = "many";
  EXPECT_FALSE(hipforge::testing::MatchesReportSchema(wrong_type));
  parsed = ReportFromJson(wrong_type);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("$.translation.files[1].lines_changed"), std::string::npos)
      << parsed.status();
  EXPECT_FALSE(ParseReport("[1, 2]").ok());
  EXPECT_FALSE(ParseReport("{not json").ok());
}

TEST(ReportTest, TotalsHaveOneDefinitionIncludingTheProgressCounters) {
  const TranslationTotals totals = ComputeTotals(FullReport().translation->files);
  EXPECT_EQ(totals.files, 4);
  EXPECT_EQ(totals.translated, 2);
  EXPECT_EQ(totals.fallback, 1);
  EXPECT_EQ(totals.unchanged, 1);
  EXPECT_EQ(totals.converted, 4);
  EXPECT_EQ(totals.unconverted, 2);
  EXPECT_EQ(totals.lines_changed, 8);
  // CUDA sources and headers; translated = translated or fallback. The CMakeLists is not a CUDA file.
  EXPECT_EQ(totals.cuda_files, 3);
  EXPECT_EQ(totals.cuda_files_translated, 2);
  // Issue 29: "2 of 4 CUDA files translated" where 2 were headers that needed no change.
  EXPECT_EQ(totals.cuda_files_unchanged, 1);
  EXPECT_EQ(CudaFilesSummary(totals), "2 translated, 1 needed no change (3 CUDA files)");
  // A report without stored totals gets them computed when read.
  json no_totals = ToJson(FullReport());
  no_totals["translation"].erase("totals");
  absl::StatusOr<Report> parsed = ReportFromJson(no_totals);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->translation->totals.cuda_files, 3);
}

// Issue 28: a .cpp without CUDA is `cpp-source` in the report as in the analyzer's output (not `other`); the flag,
// not the kind, says the pass treated a file as CUDA, and the progress counters count only those.
TEST(ReportTest, AFileKeepsItsKindAndTheFlagSaysWhetherItWasTreatedAsCuda) {
  std::vector<FileEntry> files = {
      {.path = "src/a.hip", .kind = "cuda-source", .translated_as_cuda = true, .status = FileStatus::kTranslated},
      {.path = "src/util.h", .kind = "header", .translated_as_cuda = true, .status = FileStatus::kUnchanged},
      {.path = "src/main.cpp", .kind = "cpp-source", .status = FileStatus::kCopied},
      {.path = "third_party/json.h", .kind = "header", .status = FileStatus::kCopied}};
  const TranslationTotals totals = ComputeTotals(files);
  EXPECT_EQ(totals.files, 4);
  EXPECT_EQ(totals.cuda_files, 2) << "the .cpp and the header without CUDA are not CUDA files";
  EXPECT_EQ(totals.cuda_files_translated, 1);
  Report report;
  report.translation.emplace().files = files;
  report.translation->totals = totals;
  const json written = ToJson(report);
  EXPECT_EQ(written["translation"]["files"][2]["kind"], "cpp-source");
  EXPECT_EQ(written["translation"]["files"][2]["translated_as_cuda"], false);
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(written));
  absl::StatusOr<Report> parsed = ReportFromJson(written);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(ToJson(*parsed), written);
  EXPECT_EQ(parsed->translation->totals.cuda_files, 2);
}

// A report stored before the flag named a C/C++ file without CUDA `other`: its source kinds read as CUDA, so its
// counters stay what they were.
TEST(ReportTest, AReportWrittenBeforeTheFlagKeepsItsCounters) {
  const json stored = {{"translation",
                        {{"files",
                          {{{"path", "a.hip"}, {"kind", "cuda-source"}, {"status", "translated"}},
                           {{"path", "a.h"}, {"kind", "header"}, {"status", "unchanged"}},
                           {{"path", "main.cpp"}, {"kind", "other"}, {"status", "copied"}},
                           {{"path", "CMakeLists.txt"}, {"kind", "cmake"}, {"status", "translated"}}}}}}};
  absl::StatusOr<Report> parsed = ReportFromJson(stored);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const std::vector<FileEntry>& files = parsed->translation->files;
  EXPECT_TRUE(files[0].translated_as_cuda);
  EXPECT_TRUE(files[1].translated_as_cuda);
  EXPECT_FALSE(files[2].translated_as_cuda);
  EXPECT_FALSE(files[3].translated_as_cuda);
  EXPECT_EQ(parsed->translation->totals.cuda_files, 2);
  EXPECT_EQ(parsed->translation->totals.cuda_files_translated, 1);
}

TEST(ReportTest, FindingsSplitIntoFixedAndLeft) {
  const FindingCounts counts = CountFindings(*FullReport().findings);
  EXPECT_EQ(counts.fixed, 1);
  EXPECT_EQ(counts.left_errors, 0);  // the only error was fixed
  EXPECT_EQ(counts.left_warnings, 2);
  EXPECT_EQ(counts.left(), 2);
}

// Before the translation (migrate-cli analyze) a finding with an automatic fix is not left for a person: the
// translation applies it (issue 26: analyze counted fixable findings as errors left). In a translated tree a fix the
// translation did not apply is left.
TEST(ReportTest, AFixableFindingIsLeftOnlyOnceTheTranslationDidNotApplyIt) {
  std::vector<Finding> findings = *FullReport().findings;
  findings.push_back({.rule_id = "HB104",
                      .severity = Severity::kError,
                      .path = "src/a.cu",
                      .line = 9,
                      .message = "shuffle offsets",
                      .fixable = true});
  const FindingCounts before = CountFindings(findings, FixStage::kBeforeTranslation);
  EXPECT_EQ(before.fixable, 2);  // HB101's and this one
  EXPECT_EQ(before.left_errors, 0);
  EXPECT_EQ(before.left_warnings, 1);
  const FindingCounts after = CountFindings(findings);
  EXPECT_EQ(after.fixable, 0);
  EXPECT_EQ(after.left_errors, 1);
  EXPECT_EQ(after.fixed, before.fixed);
}

// A finding in code the build does not compile is listed and kept through the JSON, but not left for a person.
TEST(ReportTest, InactiveFindingsAreListedNotLeft) {
  std::vector<Finding> findings = *FullReport().findings;
  findings.push_back({.rule_id = "TR001",
                      .severity = Severity::kWarning,
                      .path = "src/a.cu",
                      .line = 40,
                      .message = "dead",
                      .inactive = true});
  const FindingCounts counts = CountFindings(findings);
  EXPECT_EQ(counts.inactive, 1);
  EXPECT_EQ(counts.left_warnings, 2);
  const json finding = FindingToJson(findings.back());
  EXPECT_EQ(finding["inactive"], true);
  EXPECT_FALSE(FindingToJson(findings.front()).contains("inactive"));
  Report report = FullReport();
  report.findings = findings;
  absl::StatusOr<Report> parsed = ReportFromJson(ToJson(report));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(parsed->findings->back().inactive);
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(ToJson(report)));
}

TEST(ReportTest, MergeTakesTheSectionsTheOtherRoleProduced) {
  Report stored = FullReport();
  Report validation;
  validation.builds = std::vector<BuildResult>{};
  validation.gpu = GpuSection{.note = "not run on a GPU: compile-only worker"};
  stored.MergeSections(validation);
  EXPECT_TRUE(stored.builds->empty());
  EXPECT_FALSE(stored.gpu->ran_on_gpu);
  ASSERT_TRUE(stored.translation.has_value());  // untouched
  EXPECT_EQ(stored.findings->size(), 3u);
}

TEST(ValidateHintsTest, RoundTripAndDefaults) {
  EXPECT_TRUE(ValidateHintsFromJson(ToJson(ValidateHints{.managed_memory = true})).managed_memory);
  EXPECT_FALSE(ValidateHintsFromJson(json()).managed_memory);
  EXPECT_FALSE(ValidateHintsFromJson(json{{"managed_memory", "yes"}}).managed_memory);
}

}  // namespace
}  // namespace hipforge::report
