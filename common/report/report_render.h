#pragma once
// Renders the report (docs/report.md) as text for people, SARIF 2.1.0 for code-scanning tools, JUnit XML for CI
// test dashboards, or the JSON itself. Pure functions over the typed report, read once where it arrives
// (ReadReportDocument), so the same code serves `migrate-cli report JOB`, `analyze PATH` (local) and the dashboard's
// downloads.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "common/report/report.h"

namespace hipforge::report {

enum class ReportFormat { kText, kJson, kSarif, kJUnit };
absl::StatusOr<ReportFormat> ParseReportFormat(const std::string& name);  // text|json|sarif|junit

struct RenderOptions {
  // Rule metadata, as the analyzer's RuleCatalogToJson(): [{"id","severity","title","class","help"}].
  // May be empty: rules are then described from the findings alone.
  nlohmann::json rule_catalog = nlohmann::json::array();
  // Prefix of each rule's helpUri; the rule's page is <prefix><ID>.md. Code scanning needs an absolute URI:
  // empty = the rule pages installed beside the binary (AbsoluteHelpUriBase("")).
  std::string help_uri_base;
  std::string tool_version;
};

// The verdict every renderer shows: the stored one, else decided from the report (a local `analyze`).
report::Verdict VerdictOf(const report::Report& report);

// One condition of the gate as job_summary judges it: "builds", "tests", "parity", "findings", "warnings".
struct GateCondition {
  std::string name;
  bool required = false;
  std::string status;  // "passed", "failed", "none"
  std::string detail;  // "2 ok, 0 failed"
};

// The migration gate the server adds to a job's report on read (`gate`, judged as the dashboard judges it;
// docs/report.md), never stored; a local report has none.
struct Gate {
  std::string status;                 // "passed", "failed", "not_validated", "not_proved"
  std::vector<std::string> blocking;  // the conditions that failed
  std::string definition_source;      // "default", "repository" (its hipforge.yaml `gate:`), "team"; or empty
  std::vector<std::string> required;  // the definition's `requires`: "builds", "findings", ...
  std::vector<GateCondition> conditions;
};

// A report as its readers receive it (migrate-cli, the dashboard's downloads): the typed report and gate, and the
// JSON document itself, which `--format json` prints as it came (unknown fields included).
struct ReportDocument {
  Report report;
  std::optional<Gate> gate;
  nlohmann::json json = nlohmann::json::object();
};
// The one reading of a received report: InvalidArgument naming the JSON path of what is malformed (not JSON, not an
// object, a known field of the wrong type, an unknown enum name), as ReportFromJson says it.
absl::StatusOr<ReportDocument> ReadReportDocument(nlohmann::json json);
absl::StatusOr<ReportDocument> ParseReportDocument(std::string_view text);
// A report made here (local `translate`, `analyze`): no gate; its JSON is ToJson(report).
ReportDocument LocalReportDocument(Report report);
// The report's JSON with the gate beside it, as docs/report-schema.json describes the document (ToJson for the
// report; the gate as the server's job_summary writes it).
nlohmann::json DocumentJson(const Report& report, const std::optional<Gate>& gate);

// "failed, blocked by findings (repository definition, the repository's hipforge.yaml gate:, requires builds,
// findings)".
std::string GateSentence(const Gate& gate);
// The gate as JUnit and SARIF carry it, in this order: hipforge.gate, hipforge.gateSentence,
// hipforge.gateDefinition (the source) and hipforge.gateRequires ("builds,findings"). None without a gate.
std::vector<std::pair<std::string, std::string>> GateProperties(const std::optional<Gate>& gate);

std::string RenderText(const ReportDocument& document);
nlohmann::json RenderSarif(const ReportDocument& document, const RenderOptions& options);
std::string RenderJUnit(const ReportDocument& document);
std::string RenderReport(const ReportDocument& document, ReportFormat format, const RenderOptions& options);

// --fail-on threshold: findings of this severity or worse make the command exit with kExitFindings.
enum class FailOn { kNever, kError, kWarning, kNote };
absl::StatusOr<FailOn> ParseFailOn(const std::string& name);  // none|error|warning|note
// The findings left for a person at or above the threshold, as the text report counts them (CountFindings).
int CountFindingsAtOrAbove(const Report& report, FailOn threshold);

// An absolute helpUri prefix (SARIF consumers such as GitHub code scanning drop relative ones): a URI with a scheme
// is kept; a directory path becomes its file:// URI; empty means the rule pages installed with the tool
// (<binary dir>/../share/hipforge/web/rules/, which the dashboard also serves). Always ends with '/'.
std::string AbsoluteHelpUriBase(const std::string& base);

// A report path as a relative URI reference: "./" and leading "/" dropped, reserved bytes %-encoded.
std::string RelativeUri(const std::string& path);

}  // namespace hipforge::report
