// migrate-cli cancel JOB: stop a job that has not finished.
#include "client/commands/cli_context.h"

namespace hipforge::client {
namespace {

struct CancelOptions {
  std::string job_id;
  std::string reason = "cancelled from migrate-cli";
};

int RunCancel(CliContext& context, const CancelOptions& options) {
  auto job = context.Connect()->Cancel(options.job_id, options.reason);
  if (!job.ok()) return context.Fail(job.status());
  context.out() << JobLine(*job) << "\n";
  return kExitOk;
}

}  // namespace

void AddCancelCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<CancelOptions>();
  CLI::App* command = app.add_subcommand("cancel", "Cancel a job (exit 7 if it already finished)");
  command->add_option("job", options->job_id, "Job id, or its first 8 or more characters")->required();
  command->add_option("--reason", options->reason, "Recorded with the cancellation");
  command->callback([&context, options] { context.exit_code = RunCancel(context, *options); });
}

}  // namespace hipforge::client
