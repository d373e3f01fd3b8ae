#pragma once
// Renders the report JSON (docs/report.md) as text for people, SARIF 2.1.0 for code-scanning
// tools, JUnit XML for CI test dashboards, or the JSON itself. Pure functions over JSON, so the
// same code serves `migrate-cli report JOB`, `analyze PATH` (local) and the dashboard's downloads.
#include <string>
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

// The migration gate the server adds to a job's report on read (`gate`, judged as the dashboard judges it;
// docs/report.md): "failed, blocked by findings (repository definition, the repository's hipforge.yaml gate:,
// requires builds, findings)". Empty when the report has none (a local `analyze`).
std::string GateStatus(const nlohmann::json& report);
std::string GateSentence(const nlohmann::json& report);
// Where the gate's definition came from, as the JSON's `gate.definition.source` says it: "default", "repository"
// (its hipforge.yaml `gate:`) or "team" (`migrate-server gate set`). Empty when the report has no gate.
std::string GateDefinitionSource(const nlohmann::json& report);
// The gate as JUnit and SARIF carry it, in this order: hipforge.gate, hipforge.gateSentence,
// hipforge.gateDefinition (the source) and hipforge.gateRequires ("builds,findings"). None without a gate.
std::vector<std::pair<std::string, std::string>> GateProperties(const nlohmann::json& report);

std::string RenderText(const nlohmann::json& report);
nlohmann::json RenderSarif(const nlohmann::json& report, const RenderOptions& options);
std::string RenderJUnit(const nlohmann::json& report);
std::string RenderReport(const nlohmann::json& report, ReportFormat format, const RenderOptions& options);

// --fail-on threshold: findings of this severity or worse make the command exit with kExitFindings.
enum class FailOn { kNever, kError, kWarning, kNote };
absl::StatusOr<FailOn> ParseFailOn(const std::string& name);  // none|error|warning|note
int CountFindingsAtOrAbove(const nlohmann::json& report, FailOn threshold);

// An absolute helpUri prefix (SARIF consumers such as GitHub code scanning drop relative ones): a URI with a scheme
// is kept; a directory path becomes its file:// URI; empty means the rule pages installed with the tool
// (<binary dir>/../share/hipforge/web/rules/, which the dashboard also serves). Always ends with '/'.
std::string AbsoluteHelpUriBase(const std::string& base);

// A report path as a relative URI reference: "./" and leading "/" dropped, reserved bytes %-encoded.
std::string RelativeUri(const std::string& path);

}  // namespace hipforge::report
