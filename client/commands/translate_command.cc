// migrate-cli translate PATH -o OUT: the repository pass run locally (the same library the translate
// workers run): writes the HIP tree, optionally the report JSON and the patch, prints a summary.
#include <fstream>
#include <mutex>
#include <sstream>

#include "client/commands/cli_context.h"
#include "client/lib/progress_display.h"
#include "client/lib/report_output.h"

#include "common/hip_version.h"

#include "worker/translate/repo/repository_migration.h"

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
  // Build-aware translation: the user's own flags, trusted (paths anywhere), applied after the build's.
  std::vector<std::string> defines;
  std::vector<std::string> include_dirs;
  std::vector<std::string> extra_args;
  std::string compile_commands;
  std::string hip_version = "auto";
  std::string hipcc = "hipcc";
};

// "6.4" -> {6, 4}; "auto": the local hipcc's release (like the translate worker), else the translator's default.
// `source` says where the version came from, for the line the command prints (a host's old hipcc picked silently
// made the translation hold back names newer HIP has).
absl::StatusOr<translate::ApiVersion> ResolveHipVersion(CliContext& context, const TranslateOptions& options,
                                                        std::string* source) {
  std::string text = options.hip_version;
  *source = "--hip-version";
  if (text == "auto") {
    absl::StatusOr<std::string> detected = DetectHipVersion(context.launcher(), options.hipcc);
    if (!detected.ok()) {
      *source = "the translator's default (" + std::string(detected.status().message()) + ")";
      return translate::TranslateOptions{}.target_hip_version;
    }
    text = *detected;
    *source = "auto: `" + options.hipcc + " --version`; choose another with --hip-version";
  }
  int major = 0, minor = 0;
  char dot = 0;
  std::istringstream in(text);
  if (!(in >> major >> dot >> minor) || dot != '.' || major <= 0 || major > 255 || minor < 0 || minor > 255) {
    return absl::InvalidArgumentError("bad --hip-version '" + text + "' (expected e.g. 5.2, 6.4 or auto)");
  }
  return translate::ApiVersion{static_cast<uint8_t>(major), static_cast<uint8_t>(minor)};
}

int RunTranslate(CliContext& context, const TranslateOptions& options) {
  auto format = ParseReportFormat(options.format);
  if (!format.ok()) return context.Usage(std::string(format.status().message()));
  auto fail_on = ParseFailOn(options.fail_on);
  if (!fail_on.ok()) return context.Usage(std::string(fail_on.status().message()));
  std::error_code error;
  if (std::filesystem::exists(options.out_dir, error) && !std::filesystem::is_empty(options.out_dir, error)) {
    return context.Fail(absl::FailedPreconditionError("output directory is not empty: " + options.out_dir));
  }
  translate::MigrationOptions migration;
  if (!options.targets.empty()) migration.hip_architectures = options.targets;
  migration.rename_to_hip = options.rename_to_hip;
  migration.annotate = options.annotate;
  migration.apply_fixes = !options.no_fixes;
  if (!options.cache_dir.empty()) migration.translate.cache_directory = options.cache_dir;
  std::string hip_source;
  auto hip_version = ResolveHipVersion(context, options, &hip_source);
  if (!hip_version.ok()) return context.Usage(std::string(hip_version.status().message()));
  if (!context.globals.quiet) {
    context.err() << "translating for HIP " << int(hip_version->major) << "." << int(hip_version->minor) << " ("
                  << hip_source << ")\n";
  }
  migration.translate.target_hip_version = *hip_version;
  translate::CudaFrontendOptions& frontend = migration.translate.frontend;
  frontend.defines = options.defines;
  for (const auto& dir : options.include_dirs) frontend.include_dirs.push_back(std::filesystem::absolute(dir));
  frontend.extra_args = options.extra_args;
  if (!options.compile_commands.empty()) {
    if (!std::filesystem::exists(options.compile_commands, error)) {
      return context.Usage("--compile-commands: no such file or directory: " + options.compile_commands);
    }
    migration.translate.compilation_database = std::filesystem::absolute(options.compile_commands);
    migration.translate.trust_compilation_database = true;  // the user's own build
  }
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
  const ReportDocument report = report::LocalReportDocument(translate::ToReport(*result));
  if (!options.report_file.empty()) {
    std::ofstream file(options.report_file, std::ios::binary | std::ios::trunc);
    file << report.json.dump(2) << "\n";
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
  output.render.tool_version = HIPFORGE_VERSION;  // SARIF driver.version
  absl::StatusOr<int> code = WriteReport(report, output, context.out(), context.err());
  if (!code.ok()) return context.Fail(code.status());
  return *code;
}

}  // namespace

void AddTranslateCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<TranslateOptions>();
  CLI::App* command = app.add_subcommand("translate", "Translate a CUDA repository to HIP locally (no server)");
  command->add_option("path", options->path, "CUDA repository directory")->required()->check(CLI::ExistingDirectory);
  command->add_option("-o,--out", options->out_dir, "Where the HIP tree is written (absent or empty)")->required();
  command->add_option("--target", options->targets,
                      "HIP architecture for build files (repeatable; default gfx90a gfx942)");
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
  command->add_option("-D,--define", options->defines,
                      "Define a macro for every translation unit (NAME or NAME=VALUE; repeatable)");
  command->add_option("-I,--include-dir", options->include_dirs,
                      "Add an include directory for every unit (repeatable)");
  command->add_option("--extra-arg", options->extra_args, "Pass one more Clang argument to every parse (repeatable)");
  command->add_option("--compile-commands", options->compile_commands,
                      "compile_commands.json (or its directory) to take per-unit arguments from (default: the "
                      "tree's own, else its CMake configured or its Makefile dry-run)");
  command->add_option("--hip-version", options->hip_version,
                      "HIP release to translate for, e.g. 5.2 or 6.4 (default auto: the local hipcc's)");
  command->add_option("--hipcc", options->hipcc, "hipcc used by --hip-version auto (default: hipcc on PATH)");
  command->callback([&context, options] { context.exit_code = RunTranslate(context, *options); });
}

}  // namespace hipforge::client
