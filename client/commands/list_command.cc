// migrate-cli list: jobs filtered by team, state and label, one page at a time (or --all).
#include <google/protobuf/util/json_util.h>

#include "client/commands/cli_context.h"

namespace hipforge::client {
namespace {

struct ListOptions {
  std::string team;
  std::string state;
  std::string label;
  int page_size = 0;
  std::string page_token;
  bool all = false;
  bool json = false;
};

int RunList(CliContext& context, const ListOptions& options) {
  hipforge::v1::ListJobsRequest request;
  request.set_team(options.team);
  request.set_label(options.label);
  request.set_page_size(options.page_size);
  request.set_page_token(options.page_token);
  if (!options.state.empty()) {
    auto state = ParseJobState(options.state);
    if (!state.ok()) return context.Usage(std::string(state.status().message()));
    request.set_state(*state);
  }
  if (!options.label.empty() && options.label.find('=') == std::string::npos) {
    return context.Usage("--label must be key=value");
  }
  auto client = context.Connect();
  hipforge::v1::ListJobsResponse listed;  // for --json: every job printed, and the next page's token
  for (;;) {
    auto page = client->ListJobs(request);
    if (!page.ok()) return context.Fail(page.status());
    for (const auto& job : page->jobs()) {
      if (options.json)
        *listed.add_jobs() = job;
      else
        context.out() << JobLine(job) << "\n";
    }
    listed.set_next_page_token(page->next_page_token());
    if (page->next_page_token().empty()) break;
    if (!options.all) {
      if (!options.json) context.err() << "more jobs: --page-token " << page->next_page_token() << " (or --all)\n";
      break;
    }
    request.set_page_token(page->next_page_token());
  }
  if (options.json) {
    std::string text;
    google::protobuf::util::JsonPrintOptions print;
    print.add_whitespace = true;
    print.preserve_proto_field_names = true;
    print.always_print_primitive_fields = true;  // "jobs": [] and "next_page_token": "" when empty
    (void)google::protobuf::util::MessageToJsonString(listed, &text, print);
    context.out() << text;
  }
  return kExitOk;
}

}  // namespace

void AddListCommand(CLI::App& app, CliContext& context) {
  auto options = std::make_shared<ListOptions>();
  CLI::App* command = app.add_subcommand("list", "List jobs, newest first");
  command->add_option("--team", options->team, "Only this team's jobs");
  command->add_option("--state", options->state,
                      "Only jobs in this state (queued, translating, translated, validating, succeeded, failed, "
                      "cancelled)");
  command->add_option("--label", options->label, "Only jobs with this label key=value");
  command->add_option("--page-size", options->page_size, "Jobs per page (server default 50, at most 500)")
      ->check(CLI::Range(1, 500));
  command->add_option("--page-token", options->page_token, "Continue after a previous page");
  command->add_flag("--all", options->all, "Follow all pages");
  command->add_flag("--json", options->json,
                    "One JSON document: {\"jobs\": [...], \"next_page_token\": ...} (the API's Job messages)");
  command->callback([&context, options] { context.exit_code = RunList(context, *options); });
}

}  // namespace hipforge::client
