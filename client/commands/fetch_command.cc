// migrate-cli fetch JOB --out DIR | --patch FILE: download the translated tree or the patch.
#include "client/commands/cli_context.h"

namespace hipforge::client {
namespace {

struct FetchOptions {
  std::string job_id;
  std::string out_dir;
  std::string patch_file;
};

int RunFetch(CliContext& context, const FetchOptions& options) {
  if (options.out_dir.empty() && options.patch_file.empty())
    return context.Usage("fetch needs --out DIR and/or --patch FILE");
  auto client = context.Connect();
  if (!options.out_dir.empty()) {
    auto extracted = client->FetchTreeInto(options.job_id, options.out_dir);
    if (!extracted.ok()) return context.Fail(extracted.status());
    context.err() << "translated tree: " << options.out_dir << " (" << extracted->files << " files, "
                  << extracted->uncompressed_bytes << " bytes)\n";
  }
  if (!options.patch_file.empty()) {
    if (auto status = client->FetchPatchInto(options.job_id, options.patch_file); !status.ok()) {
      return context.Fail(status);
    }
    context.err() << "patch: " << options.patch_file << "\n";
  }
  return kExitOk;
}

}  // namespace

void AddFetchCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<FetchOptions>();
  CLI::App* command =
      app.add_subcommand("fetch", "Download a job's translated tree (--out) or unified patch (--patch)");
  command->add_option("job", options->job_id, "Job id, or its first 8 or more characters")->required();
  command->add_option("--out", options->out_dir, "Extract the translated tree here (absent or empty directory)");
  command->add_option("--patch", options->patch_file, "Write the unified patch (original -> translated) here");
  command->callback([&context, options] { context.exit_code = RunFetch(context, *options); });
}

}  // namespace hipforge::client
