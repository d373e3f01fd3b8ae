// migrate-cli translate PATH -o OUT: the repository pass run locally (the same library the translate
// workers run): writes the HIP tree, optionally the report JSON and the patch, prints a summary.
#include <fstream>
#include <mutex>

#include "client/commands/cli_context.h"
#include "client/lib/progress_display.h"
#include "client/lib/report_output.h"

#if HIPFORGE_HAVE_REPO_MIGRATION
#include "worker/translate/repo/repository_migration.h"
#endif

namespace hipforge::client {
namespace {

struct TranslateOptions {
  std::string path;
  std::string out_dir;
  std::vector<std::string> targets;
  bool rename_to_hip = false;
  bool annotate = false;
  bool no_fixes = false;
  std::string report_file;
  std::string patch_file;
  std::string format = "text";
  std::string fail_on = "none";
  std::string cache_dir;
};

int RunTranslate(CliContext& context, const TranslateOptions& options) {
  auto format = ParseReportFormat(options.format);
  if (!format.ok()) return context.Usage(std::string(format.status().message()));
  auto fail_on = ParseFailOn(options.fail_on);
  if (!fail_on.ok()) return context.Usage(std::string(fail_on.status().message()));
  std::error_code error;
  if (std::filesystem::exists(options.out_dir, error) && !std::filesystem::is_empty(options.out_dir, error)) {
    return context.Fail(absl::FailedPreconditionError("output directory is not empty: " + options.out_dir));
  }
#if HIPFORGE_HAVE_REPO_MIGRATION
  translate::MigrationOptions migration;
  if (!options.targets.empty()) migration.hip_architectures = options.targets;
  migration.rename_to_hip = options.rename_to_hip;
  migration.annotate = options.annotate;
  migration.apply_fixes = !options.no_fixes;
  if (!options.cache_dir.empty()) migration.translate.cache_directory = options.cache_dir;
  std::mutex display_mutex;
  ProgressDisplay display(context.err(), context.interactive());
  auto result = translate::MigrateRepository(
      options.path, options.out_dir, migration, [&](const translate::ProgressEvent& event) {
        if (context.globals.quiet) return;
        std::lock_guard lock(display_mutex);
        display.Stage(event.stage.empty() ? "translate" : event.stage, event.done, event.total, event.message);
      });
  display.EndLine();
  if (!result.ok()) return context.Fail(result.status());
  const nlohmann::json report = translate::ToReportJson(*result);
  if (!options.report_file.empty()) {
    std::ofstream file(options.report_file, std::ios::binary | std::ios::trunc);
    file << report.dump(2) << "\n";
    if (!file) return context.Fail(absl::InternalError("cannot write " + options.report_file));
  }
  if (!options.patch_file.empty()) {
    std::ofstream file(options.patch_file, std::ios::binary | std::ios::trunc);
    file << result->unified_patch;
    if (!file) return context.Fail(absl::InternalError("cannot write " + options.patch_file));
  }
  for (const auto& note : result->notes) context.err() << "note: " << note << "\n";
  ReportOutputOptions output{.format = *format, .fail_on = *fail_on, .fail_on_name = options.fail_on};
  output.render.rule_catalog = RuleCatalogJson();
  absl::StatusOr<int> code = WriteReport(report, output, context.out(), context.err());
  if (!code.ok()) return context.Fail(code.status());
  return *code;
#else
  return context.Fail(
      absl::UnimplementedError("this migrate-cli was built without the repository pass (hipforge_repo_migration)"));
#endif
}

}  // namespace

void AddTranslateCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<TranslateOptions>();
  CLI::App* command = app.add_subcommand("translate", "Translate a CUDA repository to HIP locally (no server)");
  command->add_option("path", options->path, "CUDA repository directory")->required()->check(CLI::ExistingDirectory);
  command->add_option("-o,--out", options->out_dir, "Where the HIP tree is written (absent or empty)")->required();
  command->add_option("--target", options->targets, "HIP architecture for build files (repeatable; default gfx90a gfx942)");
  command->add_flag("--rename-to-hip", options->rename_to_hip, "Rename *.cu to *.hip");
  command->add_flag("--annotate", options->annotate, "Leave // HIPFORGE HBxxx comments at findings");
  command->add_flag("--no-fixes", options->no_fixes, "Do not apply the analyzer's automatic fixes");
  command->add_option("--report", options->report_file, "Write the report JSON here");
  command->add_option("--patch", options->patch_file, "Write the unified patch here");
  command->add_option("--format", options->format, "Summary on stdout: text, json, sarif or junit")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit"}));
  command->add_option("--fail-on", options->fail_on, "Exit 4 on findings of this severity or worse")
      ->check(CLI::IsMember({"none", "error", "warning", "note"}));
  command->add_option("--cache", options->cache_dir, "Cache directory reused across runs for unchanged files");
  command->callback([&context, options] { context.exit_code = RunTranslate(context, *options); });
}

}  // namespace hipforge::client
