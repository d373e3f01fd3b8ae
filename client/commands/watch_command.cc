// migrate-cli watch JOB: follow a job's progress until it ends.
#include "client/commands/cli_context.h"

namespace hipforge::client {
namespace {

struct WatchOptions {
  std::string job_id;
  double timeout_seconds = 0;
};

int RunWatch(CliContext& context, const WatchOptions& options) {
  auto client = context.Connect();
  auto job = FollowJob(context, *client, options.job_id, options.timeout_seconds);
  if (!job.ok()) return context.Fail(job.status());
  context.out() << JobLine(*job) << "\n";
  if (!job->error().empty()) context.err() << "error: " << job->error() << "\n";
  return ExitCodeForJob(*job);
}

}  // namespace

void AddWatchCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<WatchOptions>();
  CLI::App* command = app.add_subcommand("watch", "Follow a job's progress until it finishes");
  command->add_option("job", options->job_id, "Job id, or its first 8 or more characters")->required();
  command->add_option("--wait-timeout", options->timeout_seconds, "Give up after this many seconds (0: never)")
      ->check(CLI::NonNegativeNumber);
  command->callback([&context, options] { context.exit_code = RunWatch(context, *options); });
}

}  // namespace hipforge::client
