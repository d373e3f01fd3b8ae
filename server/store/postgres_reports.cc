#include "server/store/postgres_reports.h"

#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "common/report/report_json.h"

namespace hipforge::server::reports {
namespace {

const char* NullOr(const std::optional<std::string>& value) { return value ? value->c_str() : nullptr; }

// Rewrites one section's rows: `array` is the section's JSON array (absent sections are untouched).
void ReplaceRows(pqxx::transaction_base& tx, const std::string& job_id, const std::string& table,
                 const nlohmann::json& array) {
  tx.exec_prepared("delete_report_" + table, job_id);
  if (!array.is_array() || array.empty()) return;
  const std::string text = array.dump();
  tx.exec_prepared("insert_report_" + table, job_id, text);
  if (table == "builds") tx.exec_prepared("insert_report_kernels", job_id, text);
}

// The values job_summary reads, as typed columns beside the document (migration 0016), for the sections present.
void StoreSummaryColumns(pqxx::transaction_base& tx, const std::string& job_id, const report::Report& report) {
  if (report.translation) {
    const report::TranslationTotals& t = report.translation->totals;
    tx.exec_prepared("set_report_translation_totals", job_id, t.files, t.translated, t.unchanged, t.fallback, t.copied,
                     t.failed, t.converted, t.unconverted, t.unsupported, t.lines_changed, t.cuda_files,
                     t.cuda_files_translated, t.cuda_files_unchanged);
  }
  if (report.effort) {
    tx.exec_prepared("set_report_effort", job_id, report.effort->engineer_hours, report.effort->automatic_share);
  }
  if (report.verdict) {
    tx.exec_prepared("set_report_verdict", job_id, std::string(report::VerdictLevelName(report.verdict->level)),
                     report.verdict->platform, report.verdict->why, nlohmann::json(report.verdict->not_proved).dump());
  }
  if (report.profile) {
    double total_ns = 0, cuda_ns = 0;
    bool any = false;
    for (const report::KernelProfile& kernel : *report.profile) {
      if (kernel.cuda_baseline_ns.value_or(0) <= 0) continue;
      total_ns += static_cast<double>(kernel.total_ns);
      cuda_ns += static_cast<double>(*kernel.cuda_baseline_ns);
      any = true;
    }
    const std::optional<std::string> total = any ? std::optional(std::to_string(total_ns)) : std::nullopt;
    const std::optional<std::string> cuda = any ? std::optional(std::to_string(cuda_ns)) : std::nullopt;
    tx.exec_prepared("set_report_profile", job_id, NullOr(total), NullOr(cuda));
  }
}

}  // namespace

absl::Status Store(pqxx::transaction_base& tx, const std::string& job_id, const report::Report& sent,
                   int64_t now_micros) {
  report::Report typed = sent;
  if (typed.builds) {
    // One validate task per platform (gfx and sm_ targets): the second one's sections join the first one's.
    const auto stored = tx.exec_prepared("get_report_document", job_id);
    if (!stored.empty()) {
      absl::StatusOr<report::Report> earlier = report::ParseReport(stored[0][0].as<std::string>());
      if (earlier.ok()) typed.AddOtherPlatform(*earlier);
    }
  }
  nlohmann::json report = report::ToJson(typed);  // the one serializer writes the stored document
  report.erase("job_id");                         // the job id is the row's key, not document content
  tx.exec_prepared("merge_report_document", job_id, report.dump(), now_micros);
  StoreSummaryColumns(tx, job_id, typed);
  if (report.contains("translation")) {
    const auto& translation = report["translation"];
    ReplaceRows(
        tx, job_id, "files",
        translation.is_object() ? translation.value("files", nlohmann::json::array()) : nlohmann::json::array());
  }
  for (const char* section : {"findings", "builds", "tests", "parity"}) {
    if (report.contains(section)) ReplaceRows(tx, job_id, section, report[section]);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Get(pqxx::transaction_base& tx, const std::string& job_id) {
  const auto rows = tx.exec_prepared("get_report", job_id);
  if (rows.empty()) return absl::NotFoundError("no report for job " + job_id);
  return rows[0][0].as<std::string>();
}

std::vector<FindingRow> Findings(pqxx::transaction_base& tx, const std::string& job_id, const FindingFilter& filter) {
  std::vector<FindingRow> findings;
  for (const auto& row : tx.exec_prepared("list_findings", job_id, NullOr(filter.rule_id), NullOr(filter.path),
                                          NullOr(filter.severity))) {
    FindingRow finding;
    finding.rule_id = row[0].as<std::string>();
    finding.severity = row[1].as<std::string>();
    finding.path = row[2].as<std::string>();
    finding.line = row[3].as<int>();
    finding.column = row[4].as<int>();
    finding.message = row[5].as<std::string>();
    finding.fix = row[6].as<std::string>();
    finding.auto_fixed = row[7].as<bool>();
    findings.push_back(std::move(finding));
  }
  return findings;
}

std::map<std::string, int64_t> CountByRule(pqxx::transaction_base& tx, const std::string& job_id) {
  std::map<std::string, int64_t> counts;
  for (const auto& row : tx.exec_prepared("count_findings_by_rule", job_id)) {
    counts[row[0].as<std::string>()] = row[1].as<int64_t>();
  }
  return counts;
}

std::vector<FileResultRow> FileResults(pqxx::transaction_base& tx, const std::string& job_id) {
  std::vector<FileResultRow> files;
  for (const auto& row : tx.exec_prepared("list_file_results", job_id)) {
    FileResultRow file;
    file.path = row[0].as<std::string>();
    file.status = row[1].as<std::string>();
    file.fallback_reason = row[2].as<std::string>();
    file.unconverted = row[3].as<int>();
    file.unsupported = row[4].as<int>();
    file.lines_changed = row[5].as<int>();
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace hipforge::server::reports
