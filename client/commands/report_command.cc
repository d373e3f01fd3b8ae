// migrate-cli report JOB --format text|json|sarif|junit: render a job's report. Exit code: 3/5 when
// the job ended failed/cancelled (the report is still written), else 4 on --fail-on findings.
#include "client/commands/cli_context.h"
#include "client/lib/report_output.h"

namespace hipforge::client {
namespace {

struct ReportOptions {
  std::string job_id;
  std::string format = "text";
  std::string output;
  std::string fail_on = "none";
  std::string help_uri_base;  // empty: the installed rule pages (AbsoluteHelpUriBase)
};

int RunReport(CliContext& context, const ReportOptions& options) {
  auto format = ParseReportFormat(options.format);
  if (!format.ok()) return context.Usage(std::string(format.status().message()));
  auto fail_on = ParseFailOn(options.fail_on);
  if (!fail_on.ok()) return context.Usage(std::string(fail_on.status().message()));
  auto report = context.Connect()->GetReport(options.job_id);
  if (!report.ok()) return context.Fail(report.status());
  if (!report->has_document()) {
    return context.Fail(absl::NotFoundError("job " + options.job_id + " has no report yet (state " +
                                            JobStateName(report->state()) + ")"));
  }
  // The server answers with the whole id when the command was given a short one.
  const std::string job_id = report->job_id().empty() ? options.job_id : report->job_id();
  absl::StatusOr<ReportDocument> document = ReadServerReport(report->document(), job_id);
  if (!document.ok()) return context.Fail(document.status());
  ReportOutputOptions output{
      .format = *format, .output_path = options.output, .fail_on = *fail_on, .fail_on_name = options.fail_on};
  output.render.rule_catalog = RuleCatalogJson();
  output.render.tool_version = HIPFORGE_VERSION;  // SARIF driver.version
  output.render.help_uri_base = options.help_uri_base;
  absl::StatusOr<int> code = WriteReport(*document, output, context.out(), context.err());
  if (!code.ok()) return context.Fail(code.status());
  // The report of a failed job (e.g. a build that failed) must not pass a CI gate: same codes as status.
  if (report->state() == hipforge::v1::JOB_STATE_FAILED) {
    const std::string verdict = BuildFailureVerdict(document->report);
    context.err() << "job " << job_id << " failed" << (verdict.empty() ? "" : ": " + verdict) << "\n";
    return kExitJobFailed;
  }
  if (report->state() == hipforge::v1::JOB_STATE_CANCELLED) return kExitJobCancelled;
  return *code;
}

}  // namespace

void AddReportCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand("report", "Print a job's report as text, JSON, SARIF 2.1.0 or JUnit XML");
  command->add_option("job", options->job_id, "Job id, or its first 8 or more characters")->required();
  command->add_option("--format", options->format, "text, json, sarif or junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  command->add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command->add_option("--fail-on", options->fail_on, "Exit 4 on findings of this severity or worse")
      ->check(CLI::IsMember({"none", "error", "warning", "note"}));
  command->add_option("--help-uri-base", options->help_uri_base,
                      "Prefix of SARIF rule helpUri: a URL, or a directory made a file:// URI (default: the rule pages "
                      "installed with migrate-cli)");
  command->callback([&context, options] { context.exit_code = RunReport(context, *options); });
}

}  // namespace hipforge::client
