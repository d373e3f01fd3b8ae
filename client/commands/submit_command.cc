// migrate-cli submit PATH: pack and upload a repository, optionally wait and fetch the results.
#include <memory>
#include <optional>
#include <sstream>

#include "client/commands/cli_context.h"
#include "client/lib/git_identity.h"
#include "client/lib/progress_display.h"
#include "client/lib/report_output.h"

namespace hipforge::client {
namespace {

struct SubmitOptions {
  std::string path;
  bool wait = false;
  std::vector<std::string> targets;
  std::string out_dir;
  std::string patch_file;
  std::string name;
  std::string team;
  std::vector<std::string> labels;
  bool translate_only = false;
  std::string launch_syntax = "chevron";
  bool rename_to_hip = false;
  std::vector<std::string> clang_args;
  std::string compression = "zstd";
  double wait_timeout_seconds = 0;
  std::string fail_on = "none";
  std::string report_format;
  std::string report_file;
  std::string require = "none";  // with --wait: the least verdict that exits 0 (builds, behaviour_checked)
  std::optional<std::string> repository, branch, commit;  // override what git says
  bool no_git = false;
  std::string request_id;  // empty: a random one (the library's)
};

absl::StatusOr<hipforge::v1::JobSpec> BuildSpec(const SubmitOptions& options, ProcessLauncher& launcher) {
  hipforge::v1::JobSpec spec;
  const SourceIdentity git = options.no_git ? SourceIdentity{} : DetectGitIdentity(options.path, launcher);
  spec.set_repository(options.repository.value_or(git.repository));
  spec.set_branch(options.branch.value_or(git.branch));
  spec.set_commit(options.commit.value_or(git.commit));
  std::filesystem::path path = std::filesystem::absolute(options.path).lexically_normal();
  if (path.has_filename() == false) path = path.parent_path();
  spec.set_name(options.name.empty() ? path.filename().string() : options.name);
  spec.set_team(options.team);
  for (const auto& label : options.labels) {
    const size_t eq = label.find('=');
    if (eq == std::string::npos || eq == 0) return absl::InvalidArgumentError("--label must be key=value: " + label);
    (*spec.mutable_labels())[label.substr(0, eq)] = label.substr(eq + 1);
  }
  for (const auto& target : options.targets) spec.add_targets(target);
  auto* job_options = spec.mutable_options();
  job_options->set_translate_only(options.translate_only);
  job_options->set_launch_syntax(options.launch_syntax == "ggl" ? hipforge::v1::LAUNCH_SYNTAX_HIP_LAUNCH_KERNEL_GGL
                                                                : hipforge::v1::LAUNCH_SYNTAX_CHEVRON);
  job_options->set_rename_to_hip(options.rename_to_hip);
  for (const auto& arg : options.clang_args) job_options->add_extra_clang_args(arg);
  return spec;
}

// --require: exit kExitNotProved when the job's verdict (the report's, as every output says it) is below `required`.
int CheckRequiredVerdict(CliContext& context, MigrationClient& client, const hipforge::v1::Job& job,
                         const std::string& required) {
  auto fetched = client.GetReport(job.id());
  if (!fetched.ok()) return context.Fail(fetched.status());
  absl::StatusOr<ReportDocument> parsed = ReadServerReport(fetched->document());
  if (!parsed.ok()) return context.Fail(parsed.status());
  const report::Verdict verdict = report::VerdictOf(parsed->report);
  // translated_only < builds < behaviour_checked; failed proves nothing.
  auto rank = [](report::VerdictLevel level) {
    switch (level) {
      case report::VerdictLevel::kTranslatedOnly: return 1;
      case report::VerdictLevel::kBuilds: return 2;
      case report::VerdictLevel::kBehaviourChecked: return 3;
      case report::VerdictLevel::kFailed: return 0;
    }
    return 0;
  };
  const std::optional<report::VerdictLevel> wanted = report::ParseVerdictLevel(required);
  if (wanted && rank(verdict.level) >= rank(*wanted)) return kExitOk;
  context.err() << "job " << job.id() << " proved less than --require " << required << ": "
                << report::VerdictSentence(verdict) << "\n";
  return kExitNotProved;
}

// After the job finished: fetch what was asked for and apply --fail-on and --require.
int FinishWaitedJob(CliContext& context, MigrationClient& client, const hipforge::v1::Job& job,
                    const SubmitOptions& options) {
  int code = ExitCodeForJob(job);
  if (job.state() != hipforge::v1::JOB_STATE_SUCCEEDED) {
    context.err() << "job " << job.id() << " ended " << JobStateName(job.state())
                  << (job.error().empty() ? "" : ": " + job.error()) << "\n";
  }
  if (job.state() == hipforge::v1::JOB_STATE_SUCCEEDED || job.state() == hipforge::v1::JOB_STATE_FAILED) {
    // A job that failed in validation still has its translated tree and patch: fetch them too.
    const bool failed = job.state() == hipforge::v1::JOB_STATE_FAILED;
    auto tolerable = [&](const absl::Status& status) { return failed && status.code() == absl::StatusCode::kNotFound; };
    if (!options.out_dir.empty()) {
      auto extracted = client.FetchTreeInto(job.id(), options.out_dir);
      if (extracted.ok()) {
        context.err() << "translated tree: " << options.out_dir << " (" << extracted->files << " files)\n";
      } else if (!tolerable(extracted.status())) {
        return context.Fail(extracted.status());
      }
    }
    if (!options.patch_file.empty()) {
      auto status = client.FetchPatchInto(job.id(), options.patch_file);
      if (status.ok()) {
        context.err() << "patch: " << options.patch_file << "\n";
      } else if (!tolerable(status)) {
        return context.Fail(status);
      }
    }
    auto fail_on = ParseFailOn(options.fail_on);
    if (!options.report_format.empty() || *fail_on != FailOn::kNever) {
      auto report = client.GetReport(job.id());
      if (!report.ok()) return context.Fail(report.status());
      absl::StatusOr<ReportDocument> document = ReadServerReport(report->document());
      if (!document.ok()) return context.Fail(document.status());
      ReportOutputOptions output{.fail_on = *fail_on, .fail_on_name = options.fail_on};
      output.render.rule_catalog = RuleCatalogJson();
      output.render.tool_version = HIPFORGE_VERSION;  // SARIF driver.version
      std::ostringstream discarded;                   // --fail-on without --report: count only
      if (!options.report_format.empty()) {
        output.format = *ParseReportFormat(options.report_format);
        output.output_path = options.report_file;
      }
      absl::StatusOr<int> findings_code =
          WriteReport(*document, output, options.report_format.empty() ? discarded : context.out(), context.err());
      if (!findings_code.ok()) return context.Fail(findings_code.status());
      if (code == kExitOk) code = *findings_code;
    }
    if (code == kExitOk && options.require != "none")
      code = CheckRequiredVerdict(context, client, job, options.require);
  }
  return code;
}

int RunSubmit(CliContext& context, const SubmitOptions& options) {
  if (!options.wait && (!options.out_dir.empty() || !options.patch_file.empty() || !options.report_format.empty())) {
    return context.Usage("--out, --patch and --report need --wait");
  }
  if (auto fail_on = ParseFailOn(options.fail_on); !fail_on.ok())
    return context.Usage(std::string(fail_on.status().message()));
  if (!options.report_format.empty()) {
    if (auto format = ParseReportFormat(options.report_format); !format.ok()) {
      return context.Usage(std::string(format.status().message()));
    }
  }
  auto spec = BuildSpec(options, context.launcher());
  if (!spec.ok()) return context.Usage(std::string(spec.status().message()));
  // Nothing to upload is the user's mistake, not the server's: say so before connecting.
  auto files = ListFilesToPack(options.path, context.launcher());
  if (!files.ok()) return context.Fail(absl::InvalidArgumentError(std::string(files.status().message())));
  if (files->empty())
    return context.Fail(absl::InvalidArgumentError("nothing to upload: " + options.path + " is empty"));

  auto client = context.Connect();
  ProgressDisplay display(context.err(), context.interactive());
  auto job = client->Submit(
      options.path, *spec, options.compression == "gzip" ? ArchiveCompression::kGzip : ArchiveCompression::kZstd,
      [&](const PackProgress& progress) {
        if (!context.globals.quiet) display.Upload(progress);
      },
      options.request_id);
  display.EndLine();
  if (!job.ok()) return context.Fail(job.status());
  context.out() << job->id() << "\n" << std::flush;
  if (!context.globals.quiet) {
    context.err() << "submitted job " << job->id() << " (" << spec->name() << ")";
    // The history the dashboard files it under, and how to change it.
    if (!spec->repository().empty()) {
      context.err() << ", repository " << spec->repository()
                    << (options.repository ? " (--repository)" : " (from git; --repository to override)");
    }
    context.err() << "\n";
  }
  if (!options.wait) return kExitOk;

  auto finished = FollowJob(context, *client, job->id(), options.wait_timeout_seconds);
  if (!finished.ok()) return context.Fail(finished.status());
  return FinishWaitedJob(context, *client, *finished, options);
}

}  // namespace

void AddSubmitCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<SubmitOptions>();
  CLI::App* command = app.add_subcommand("submit", "Pack a CUDA repository (honouring .gitignore) and submit it");
  command->add_option("path", options->path, "Repository directory")->required()->check(CLI::ExistingDirectory);
  command->add_flag("--wait", options->wait, "Wait until the job finishes (exit code reflects the outcome)");
  command->add_option("--target", options->targets, "GPU architecture to validate for (repeatable), e.g. gfx90a");
  command->add_option("--out", options->out_dir, "With --wait: extract the translated tree into this directory");
  command->add_option("--patch", options->patch_file, "With --wait: write the unified patch to this file");
  command->add_option("--name", options->name, "Job name (default: the directory name)");
  command->add_option("--team", options->team, "Team owning the job");
  command->add_option("--label", options->labels, "Label key=value (repeatable)");
  command->add_flag("--translate-only", options->translate_only, "Stop after translation (no validation)");
  command->add_option("--launch-syntax", options->launch_syntax, "Kernel launches: chevron (keep <<<>>>) or ggl")
      ->check(CLI::IsMember({"chevron", "ggl"}));
  command->add_flag("--rename-to-hip", options->rename_to_hip, "Rename *.cu to *.hip in the translated tree");
  command->add_option("--clang-arg", options->clang_args, "Extra Clang argument for the translator (repeatable)");
  command->add_option("--compression", options->compression, "Upload compression")
      ->check(CLI::IsMember({"zstd", "gzip"}));
  command->add_option("--wait-timeout", options->wait_timeout_seconds, "Give up waiting after this many seconds")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--fail-on", options->fail_on, "With --wait: exit 4 on findings of this severity or worse")
      ->check(CLI::IsMember({"none", "error", "warning", "note"}));
  command
      ->add_option("--require", options->require,
                   "With --wait: exit 10 unless the job's verdict is at least this (builds: every target built; "
                   "behaviour_checked: tests passed on a GPU)")
      ->check(CLI::IsMember({"none", "translated_only", "builds", "behaviour_checked"}));
  command->add_option("--report", options->report_format, "With --wait: print the report (text|json|sarif|junit)");
  command->add_option("--report-output", options->report_file, "Write the --report output to this file");
  command->add_option("--repository", options->repository,
                      "Source repository of the tree (default: git remote origin, else the checkout's name)");
  command->add_option("--branch", options->branch, "Source branch (default: git's current branch)");
  command->add_option("--commit", options->commit, "Source commit id (default: git HEAD)");
  command->add_flag("--no-git", options->no_git, "Do not read repository, branch and commit from git");
  command->add_option("--request-id", options->request_id,
                      "This submission's id, the same on every retry of it (1-128 of A-Z a-z 0-9 . _ : -): a "
                      "submit whose answer was lost, sent again with it, gets the job the first made "
                      "(default: a random one; the CLI's own retries reuse it)");
  command->callback([&context, options] { context.exit_code = RunSubmit(context, *options); });
}

}  // namespace hipforge::client
