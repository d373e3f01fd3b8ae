// migrate-cli analyze PATH: the AMD-semantics analyzer run locally (the same library the translate
// workers run), rendered as text, JSON or SARIF, with --fail-on for CI gates.
#include <mutex>

#include "client/commands/cli_context.h"
#include "client/lib/progress_display.h"
#include "client/lib/report_output.h"

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/analyze/findings_json.h"
#include "worker/translate/report_conversion.h"

namespace hipforge::client {

nlohmann::json RuleCatalogJson() { return translate::RuleCatalogToJson(); }

namespace {

struct AnalyzeOptions {
  std::string path;
  std::string format = "text";
  std::string output;
  std::string fail_on = "none";
  std::vector<std::string> disabled_rules;
  bool no_parse = false;
  unsigned jobs = 0;
  std::string help_uri_base;  // empty: the installed rule pages (AbsoluteHelpUriBase)
};

constexpr uintmax_t kMaxAnalyzedFileBytes = 4 << 20;  // generated or data files beyond this are not code

int RunAnalyze(CliContext& context, const AnalyzeOptions& options) {
  auto format = ParseReportFormat(options.format);
  if (!format.ok()) return context.Usage(std::string(format.status().message()));
  auto fail_on = ParseFailOn(options.fail_on);
  if (!fail_on.ok()) return context.Usage(std::string(fail_on.status().message()));
  auto listed = ListFilesToPack(options.path, context.launcher());
  if (!listed.ok()) return context.Fail(absl::InvalidArgumentError(std::string(listed.status().message())));
  std::vector<std::filesystem::path> files;
  for (const auto& relative : *listed) {
    std::error_code error;
    const auto absolute = std::filesystem::path(options.path) / relative;
    if (std::filesystem::is_regular_file(absolute, error) &&
        std::filesystem::file_size(absolute, error) <= kMaxAnalyzedFileBytes) {
      files.emplace_back(relative);
    }
  }
  translate::AnalyzeOptions analyze;
  analyze.jobs = options.jobs;
  analyze.parse_sources = !options.no_parse;
  analyze.disabled_rules = options.disabled_rules;
  auto analyzer = translate::CreateAnalyzer(analyze);
  if (!analyzer.ok()) return context.Usage(std::string(analyzer.status().message()));
  std::mutex display_mutex;
  ProgressDisplay display(context.err(), context.interactive());
  auto result = (*analyzer)->Analyze(options.path, files, [&](const translate::ProgressEvent& event) {
    if (context.globals.quiet) return;
    std::lock_guard lock(display_mutex);
    display.Stage(event.stage.empty() ? "analyze" : event.stage, event.done, event.total, event.message);
  });
  display.EndLine();
  if (!result.ok()) return context.Fail(result.status());
  report::Report analyzed;
  analyzed.findings.emplace();
  for (const translate::Finding& finding : result->findings) {
    analyzed.findings->push_back(translate::ToReportFinding(finding));
  }
  analyzed.effort = translate::EstimateEffort(result->findings, {});
  const ReportDocument report = report::LocalReportDocument(std::move(analyzed));
  ReportOutputOptions output{
      .format = *format, .output_path = options.output, .fail_on = *fail_on, .fail_on_name = options.fail_on};
  output.render.rule_catalog = RuleCatalogJson();
  output.render.tool_version = HIPFORGE_VERSION;  // SARIF driver.version
  output.render.help_uri_base = options.help_uri_base;
  absl::StatusOr<int> code = WriteReport(report, output, context.out(), context.err());
  if (!code.ok()) return context.Fail(code.status());
  if (!output.output_path.empty() && output.output_path != "-" && !context.globals.quiet) {
    context.err() << result->findings.size() << " finding(s) in " << files.size() << " files -> " << options.output
                  << "\n";
  }
  return *code;
}

}  // namespace

void AddAnalyzeCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<AnalyzeOptions>();
  CLI::App* command = app.add_subcommand("analyze", "Run the AMD-semantics analyzer locally (no server)");
  command->add_option("path", options->path, "Repository directory")->required()->check(CLI::ExistingDirectory);
  command->add_option("--format", options->format, "text, json, sarif or junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  command->add_option("-o,--output", options->output, "Write to this file instead of stdout");
  command->add_option("--fail-on", options->fail_on, "Exit 4 on findings of this severity or worse")
      ->check(CLI::IsMember({"none", "error", "warning", "note"}));
  command->add_option("--disable", options->disabled_rules, "Rule id to leave out (repeatable), e.g. HB203");
  command->add_flag("--no-parse", options->no_parse, "Token/line rules only (no Clang parse): faster, fewer rules");
  command->add_option("-j,--jobs", options->jobs, "Parallel parses (default: all cores)");
  command->add_option("--help-uri-base", options->help_uri_base,
                      "Prefix of SARIF rule helpUri: a URL, or a directory made a file:// URI (default: the rule pages "
                      "installed with migrate-cli)");
  command->callback([&context, options] { context.exit_code = RunAnalyze(context, *options); });
}

}  // namespace hipforge::client
