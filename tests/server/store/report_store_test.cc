// Reports: stored as JSON and as queryable rows, assembled back from the tables.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "tests/common/report_fixture.h"
#include "tests/common/report_schema_check.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server::testing {
namespace {

using nlohmann::json;
using report::testing::ReportOf;

const char* kTranslateReport = R"json({
  "job_id": "ignored",
  "translation": {"files": [
      {"path": "src/a.cu", "status": "translated", "fallback_reason": "", "converted": {"function": 3, "type": 1},
       "unconverted": 0, "unsupported": 1, "lines_changed": 5, "changed_by": ["runtime", "HB102"]},
      {"path": "src/b.cu", "status": "fallback", "fallback_reason": "parse error", "converted": {},
       "unconverted": 2, "unsupported": 0, "lines_changed": 1, "changed_by": ["runtime"]},
      {"path": "CMakeLists.txt", "status": "translated", "lines_changed": 2, "changed_by": ["cmake"]}],
    "totals": {"files": 3, "translated": 2, "fallback": 1, "converted": 4, "unsupported": 1, "lines_changed": 8}},
  "findings": [
    {"rule_id": "HB101", "severity": "error", "path": "src/a.cu", "line": 12, "column": 5,
     "message": "warp size assumed 32", "fix": "use warpSize", "auto_fixed": false},
    {"rule_id": "HB102", "severity": "warning", "path": "src/a.cu", "line": 20, "column": 1,
     "message": "m2", "fix": "", "auto_fixed": true},
    {"rule_id": "HB101", "severity": "error", "path": "src/b.cu", "line": 3, "column": 9,
     "message": "m3", "fix": "", "auto_fixed": false}],
  "effort": {"engineer_hours": 3.5, "automatic_share": 0.93, "by_severity": {"error": 2, "warning": 1, "note": 0}}
})json";

const char* kValidateReport = R"json({
  "builds": [
    {"requested_arch": "gfx942", "arch": "gfx940", "toolchain": "hipcc 5.2.3 (Debian)", "ok": true,
     "duration_ms": 1234, "errors": [],
     "kernels": [{"name": "saxpy", "vgprs": 32, "sgprs": 20, "agprs": 0, "scratch_bytes": 0, "occupancy": 8,
                  "spills": 0, "lds_bytes": 0},
                 {"name": "reduce", "vgprs": 64, "sgprs": 30}]},
    {"requested_arch": "gfx90a", "arch": "gfx90a", "toolchain": "hipcc 5.2.3 (Debian)", "ok": false,
     "duration_ms": 99, "errors": [{"path": "src/b.cu", "line": 10, "message": "no member named x"}], "kernels": []}],
  "tests": [{"name": "saxpy_test", "arch": "gfx90a", "status": "not_run", "duration_ms": 0,
             "output_excerpt": "no GPU"}],
  "parity": [{"case": "saxpy_n1024", "verdict": "missing", "max_abs_error": 0.0, "max_rel_error": 0.0,
              "mismatches": 0}],
  "gpu": {"ran_on_gpu": false, "note": "not run on a GPU: compile-only worker"}
})json";

class ReportStoreTest : public StoreTest {};

TEST_F(ReportStoreTest, StoresSectionsAsRowsAndAssemblesThemBack) {
  const Job job = CreateTestJob("report", {"gfx90a", "gfx942"});
  ASSERT_TRUE(store_->StoreReport(job.id, ReportOf(kTranslateReport)).ok());
  ASSERT_TRUE(store_->StoreReport(job.id, ReportOf(kValidateReport)).ok());

  // Queryable: per-rule counts, per-rule and per-file findings, per-file results, builds per arch.
  auto counts = store_->CountFindingsByRule(job.id);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(*counts, (std::map<std::string, int64_t>{{"HB101", 2}, {"HB102", 1}}));
  FindingFilter by_rule;
  by_rule.rule_id = "HB101";
  auto hb101 = store_->ListFindings(job.id, by_rule);
  ASSERT_TRUE(hb101.ok());
  ASSERT_EQ(hb101->size(), 2u);
  EXPECT_EQ((*hb101)[0].path, "src/a.cu");
  EXPECT_EQ((*hb101)[0].line, 12);
  EXPECT_EQ((*hb101)[0].column, 5);
  EXPECT_EQ((*hb101)[0].fix, "use warpSize");
  FindingFilter by_file;
  by_file.path = "src/a.cu";
  EXPECT_EQ(store_->ListFindings(job.id, by_file)->size(), 2u);
  FindingFilter warnings;
  warnings.severity = "warning";
  ASSERT_EQ(store_->ListFindings(job.id, warnings)->size(), 1u);
  EXPECT_TRUE(store_->ListFindings(job.id, warnings)->at(0).auto_fixed);
  auto files = store_->ListFileResults(job.id);
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[1].status, "fallback");
  EXPECT_EQ((*files)[1].fallback_reason, "parse error");
  EXPECT_EQ(QueryScalar("SELECT string_agg(requested_arch || '->' || arch || ':' || ok, ',' ORDER BY ordinal) "
                        "FROM report_builds"),
            "gfx942->gfx940:true,gfx90a->gfx90a:false");
  EXPECT_EQ(QueryScalar("SELECT max(vgprs) FROM report_kernels"), "64");
  EXPECT_EQ(QueryScalar("SELECT verdict FROM report_parity"), "missing");

  // Assembled JSON keeps the contract's field names and carries both roles' sections.
  auto text = store_->GetReport(job.id);
  ASSERT_TRUE(text.ok()) << text.status();
  const json report = json::parse(*text);
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(report));
  EXPECT_EQ(report["job_id"], job.id);
  EXPECT_EQ(report["translation"]["files"].size(), 3u);
  EXPECT_EQ(report["translation"]["files"][0]["converted"]["function"], 3);
  EXPECT_EQ(report["translation"]["files"][0]["changed_by"], json::array({"runtime", "HB102"}));
  EXPECT_EQ(report["translation"]["totals"]["files"], 3);
  EXPECT_EQ(report["findings"][0]["column"], 5);
  EXPECT_EQ(report["findings"][1]["auto_fixed"], true);
  EXPECT_DOUBLE_EQ(report["effort"]["engineer_hours"].get<double>(), 3.5);
  EXPECT_EQ(report["builds"][0]["kernels"][0]["name"], "saxpy");
  // The store keeps the typed report: a kernel field its producer left out is the type's 0 (validate workers
  // report every field).
  EXPECT_EQ(report["builds"][0]["kernels"][1]["agprs"], 0);
  EXPECT_EQ(report["builds"][1]["errors"][0]["message"], "no member named x");
  EXPECT_EQ(report["tests"][0]["status"], "not_run");
  EXPECT_EQ(report["parity"][0]["case"], "saxpy_n1024");
  EXPECT_EQ(report["gpu"]["ran_on_gpu"], false);
  EXPECT_FALSE(report.contains("profile")) << "sections nobody produced are absent";
}

TEST_F(ReportStoreTest, ResubmittedSectionReplacesRows) {
  const Job job = CreateTestJob("resubmit");
  ASSERT_TRUE(store_->StoreReport(job.id, ReportOf(kTranslateReport)).ok());
  ASSERT_TRUE(store_->StoreReport(job.id, ReportOf(R"({"findings":[{"rule_id":"HB200","severity":"note"}]})")).ok());
  auto counts = store_->CountFindingsByRule(job.id);
  EXPECT_EQ(*counts, (std::map<std::string, int64_t>{{"HB200", 1}}));
  EXPECT_EQ(store_->ListFileResults(job.id)->size(), 3u) << "untouched sections keep their rows";
}

// A report with `files` file entries (each with a field only the document keeps) and as many findings.
std::string LargeReport(int files) {
  json report = {{"translation", {{"files", json::array()}}}, {"findings", json::array()}};
  for (int i = 0; i < files; ++i) {
    const std::string path = "src/dir" + std::to_string(i / 100) + "/kernel_" + std::to_string(i) + ".cu";
    report["translation"]["files"].push_back({{"path", path},
                                              {"status", "translated"},
                                              {"kind", "cuda"},
                                              {"lines_changed", i % 7},
                                              {"changed_by", {"runtime"}}});
    report["findings"].push_back({{"rule_id", "HB101"},
                                  {"severity", "warning"},
                                  {"path", path},
                                  {"line", i},
                                  {"message", "warp size assumed 32 at a place in this file"}});
  }
  return report.dump();
}

TEST_F(ReportStoreTest, AReportWithTwentyThousandFilesIsReadInLinearTime) {
  // GetJob and GetReport took > 30 s on every call for a 20,000-file upload (issue 24, item 6): each row looked its
  // document entry up by ordinal, reading the whole document again per row. 2,000 files then took 0.33 s.
  auto seconds_to_read = [&](int files) {
    const Job job = CreateTestJob("large-" + std::to_string(files));
    EXPECT_TRUE(store_->StoreReport(job.id, ReportOf(LargeReport(files))).ok());
    const auto started = std::chrono::steady_clock::now();
    absl::StatusOr<std::string> text = store_->GetReport(job.id);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_TRUE(text.ok()) << text.status();
    if (text.ok()) {
      const json report = json::parse(*text);
      EXPECT_EQ(report["translation"]["files"].size(), static_cast<size_t>(files));
      EXPECT_EQ(report["translation"]["files"][files - 1]["kind"], "cuda") << "document-only fields are kept";
      EXPECT_EQ(report["findings"][files - 1]["line"], files - 1);
    }
    return seconds;
  };
  const double small = seconds_to_read(2000);
  const double large = seconds_to_read(20000);
  std::printf("GetReport: 2,000 files %.3f s, 20,000 files %.3f s\n", small, large);
  EXPECT_LT(large, 5.0);
  EXPECT_LT(large, 20 * small + 2.0) << "ten times the files took far more than ten times as long (quadratic)";
}

// A malformed report never reaches the store: it takes the typed report, and the wire's conversion refuses an
// unknown enum value (ReportProtoTest, WorkerServiceTest.MalformedReportIsRefused).
TEST_F(ReportStoreTest, MissingReportIsNotFound) {
  const Job job = CreateTestJob("none");
  EXPECT_EQ(store_->GetReport(job.id).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->StoreReport("7d9c1a8e-0000-4000-8000-000000000000", {}).code(), absl::StatusCode::kNotFound);
}

// job_summary reads typed columns written with the report (migration 0016); rows stored before it are filled from
// their documents by the migration. Simulated here: the columns dropped and 0016 applied again on a schema with a
// stored report; the summary is the same as when the store wrote the columns itself.
TEST_F(ReportStoreTest, Migration0016FillsTheSummaryColumnsOfReportsStoredBeforeIt) {
  const Job job = CreateTestJob("backfill", {"gfx942"});
  report::Report validation = ReportOf(kValidateReport);
  validation.profile =
      std::vector<report::KernelProfile>{{.kernel = "saxpy", .calls = 1, .total_ns = 300, .cuda_baseline_ns = 200},
                                         {.kernel = "reduce", .calls = 1, .total_ns = 100, .cuda_baseline_ns = 50},
                                         {.kernel = "only_hip", .calls = 1, .total_ns = 1000}};
  validation.verdict = report::Verdict{
      .level = report::VerdictLevel::kBuilds, .platform = "AMD gfx942", .not_proved = {"tests: not run on a GPU"}};
  ASSERT_TRUE(store_->StoreReport(job.id, ReportOf(kTranslateReport)).ok());
  ASSERT_TRUE(store_->StoreReport(job.id, validation).ok());
  const std::string summary_sql = "SELECT job_summary(j)::text FROM jobs j";
  const json written = json::parse(QueryScalar(summary_sql));
  ASSERT_TRUE(written.is_object() && written["translation"].is_object()) << written.dump();
  EXPECT_EQ(written["translation"]["files"], 3);
  EXPECT_EQ(written["translation"]["cuda_files"], 0) << "every total of the typed report";
  EXPECT_DOUBLE_EQ(written["engineer_hours"].get<double>(), 3.5);
  EXPECT_DOUBLE_EQ(written["kernel_time_ratio"].get<double>(), 400.0 / 250.0);
  EXPECT_EQ(written["verdict"],
            json({{"level", "builds"}, {"platform", "AMD gfx942"}, {"not_proved", {"tests: not run on a GPU"}}}));

  std::string drop;
  for (const char* column : {"translation_files",
                             "translation_translated",
                             "translation_unchanged",
                             "translation_fallback",
                             "translation_copied",
                             "translation_failed",
                             "translation_converted",
                             "translation_unconverted",
                             "translation_unsupported",
                             "translation_lines_changed",
                             "translation_cuda_files",
                             "translation_cuda_files_translated",
                             "translation_cuda_files_unchanged",
                             "effort_engineer_hours",
                             "effort_automatic_share",
                             "verdict_level",
                             "verdict_platform",
                             "verdict_why",
                             "verdict_not_proved",
                             "profile_total_ns",
                             "profile_cuda_baseline_ns"}) {
    drop += std::string(drop.empty() ? "" : ", ") + "DROP COLUMN " + column;
  }
  Execute("ALTER TABLE report_documents " + drop);
  Execute("DELETE FROM schema_migrations WHERE version = 16");
  absl::StatusOr<std::vector<int>> applied = ApplyMigrations(TestDatabaseUrl(), schema_);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_EQ(*applied, std::vector<int>{16});
  EXPECT_EQ(json::parse(QueryScalar(summary_sql)), written);
}

TEST_F(ReportStoreTest, CompletionStoresReportInSameTransaction) {
  const Job job = CreateTestJob("complete-report");
  auto leased = store_->LeaseTask(LeaseRequest{"w", {TaskKind::kTranslate}, {}, std::chrono::seconds(30)});
  ASSERT_TRUE(leased.ok() && leased->has_value());
  TaskCompletion completion;
  completion.lease = (*leased)->lease;
  completion.report = ReportOf(kTranslateReport);
  ASSERT_EQ(*store_->CompleteTask(completion), CompletionOutcome::kApplied);
  auto report = store_->GetReport(job.id);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(json::parse(*report)["findings"].size(), 3u);
}

}  // namespace
}  // namespace hipforge::server::testing
