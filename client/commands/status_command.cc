// migrate-cli status JOB: the job's current state and counters.
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/time_util.h>

#include "client/commands/cli_context.h"

namespace hipforge::client {
namespace {

struct StatusOptions {
  std::string job_id;
  bool json = false;
};

int RunStatus(CliContext& context, const StatusOptions& options) {
  auto job = context.Connect()->GetJob(options.job_id);
  if (!job.ok()) return context.Fail(job.status());
  if (options.json) {
    std::string text;
    google::protobuf::util::JsonPrintOptions print;
    print.add_whitespace = true;
    print.preserve_proto_field_names = true;
    (void)google::protobuf::util::MessageToJsonString(*job, &text, print);
    context.out() << text;
    return kExitOk;
  }
  auto& out = context.out();
  out << "job:      " << job->id() << "\n";
  out << "name:     " << job->spec().name() << "\n";
  if (!job->spec().team().empty()) out << "team:     " << job->spec().team() << "\n";
  for (const auto& [key, value] : job->spec().labels()) out << "label:    " << key << "=" << value << "\n";
  out << "state:    " << JobStateName(job->state()) << "\n";
  if (!job->error().empty()) out << "error:    " << job->error() << "\n";
  if (job->spec().targets_size() > 0) {
    out << "targets: ";
    for (const auto& target : job->spec().targets()) out << " " << target;
    out << "\n";
  }
  // Job.input_files is counted by the server at submit; 0 only for jobs from before it did (no "0 files" then).
  out << "input:    ";
  if (job->input_files() > 0) out << job->input_files() << " files, ";
  out << job->input_bytes() << " bytes\n";
  // The counters are the report's CUDA files ("CUDA files: 4 translated (4 CUDA files)"), not all its files.
  out << "progress: " << job->files_translated() << "/" << job->files_total() << " CUDA files translated\n";
  out << "attempts: " << job->attempts() << "\n";
  if (job->has_created_at())
    out << "created:  " << google::protobuf::util::TimeUtil::ToString(job->created_at()) << "\n";
  if (job->has_updated_at())
    out << "updated:  " << google::protobuf::util::TimeUtil::ToString(job->updated_at()) << "\n";
  if (job->artifact_kinds_size() > 0) {
    out << "artifacts:";
    for (const auto& kind : job->artifact_kinds()) out << " " << kind;
    out << "\n";
  }
  // A finished job's outcome is the exit code, so `status` can gate a pipeline too.
  return ExitCodeForJob(*job);
}

}  // namespace

void AddStatusCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<StatusOptions>();
  CLI::App* command = app.add_subcommand("status", "Show a job's state (exit 3 if it failed, 5 if cancelled)");
  command->add_option("job", options->job_id, "Job id, or its first 8 or more characters")->required();
  command->add_flag("--json", options->json, "Print the job as JSON");
  command->callback([&context, options] { context.exit_code = RunStatus(context, *options); });
}

}  // namespace hipforge::client
