// migrate-cli report JOB --format text|json|sarif|junit: render a job's report.
#include <fstream>

#include "client/commands/cli_context.h"
#include "client/lib/report_render.h"

namespace hipforge::client {
namespace {

struct ReportOptions {
  std::string job_id;
  std::string format = "text";
  std::string output;
  std::string fail_on = "none";
  std::string help_uri_base = "docs/rules/";
};

int RunReport(CliContext& context, const ReportOptions& options) {
  auto format = ParseReportFormat(options.format);
  if (!format.ok()) return context.Usage(std::string(format.status().message()));
  auto fail_on = ParseFailOn(options.fail_on);
  if (!fail_on.ok()) return context.Usage(std::string(fail_on.status().message()));
  auto report = context.Connect()->GetReport(options.job_id);
  if (!report.ok()) return context.Fail(report.status());
  if (report->report_json().empty()) {
    return context.Fail(absl::NotFoundError("job " + options.job_id + " has no report yet (state " +
                                            JobStateName(report->state()) + ")"));
  }
  nlohmann::json document = nlohmann::json::parse(report->report_json());
  if (!document.contains("job_id")) document["job_id"] = options.job_id;
  RenderOptions render;
  render.rule_catalog = RuleCatalogJson();
  render.help_uri_base = options.help_uri_base;
  const std::string rendered = RenderReport(document, *format, render);
  if (options.output.empty() || options.output == "-") {
    context.out() << rendered;
  } else {
    std::ofstream file(options.output, std::ios::binary | std::ios::trunc);
    file << rendered;
    if (!file) return context.Fail(absl::InternalError("cannot write " + options.output));
  }
  const int over = CountFindingsAtOrAbove(document, *fail_on);
  if (over > 0) {
    context.err() << over << " finding(s) at or above --fail-on " << options.fail_on << "\n";
    return kExitFindings;
  }
  return kExitOk;
}

}  // namespace

void AddReportCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand("report", "Print a job's report as text, JSON, SARIF 2.1.0 or JUnit XML");
  command->add_option("job", options->job_id, "Job id")->required();
  command->add_option("--format", options->format, "text, json, sarif or junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  command->add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command->add_option("--fail-on", options->fail_on, "Exit 4 on findings of this severity or worse")
      ->check(CLI::IsMember({"none", "error", "warning", "note"}));
  command->add_option("--help-uri-base", options->help_uri_base, "Prefix of SARIF rule helpUri (default docs/rules/)");
  command->callback([&context, options] { context.exit_code = RunReport(context, *options); });
}

}  // namespace hipforge::client
