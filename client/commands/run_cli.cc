#include <cstring>

#include "client/commands/cli_context.h"

#ifndef HIPFORGE_VERSION
#define HIPFORGE_VERSION "dev"
#endif

namespace hipforge::client {

int RunCli(const std::vector<std::string>& args, CliIo io, ProcessLauncher& launcher) {
  CliContext context(io, launcher);
  CLI::App app{
      "migrate-cli: submit CUDA repositories to hipforge, follow jobs, fetch HIP results and reports;\n"
      "`translate` and `analyze` run locally without a server. Exit codes: docs/cli.md."};
  app.name("migrate-cli");
  app.set_version_flag("--version", HIPFORGE_VERSION);
  app.add_option("--server", context.globals.server,
                 "Server address host:port; several servers of one installation: repeat it or give a comma list, "
                 "calls move to the next when one dies (default: $MIGRATE_SERVER, else localhost:50051)")
      ->multi_option_policy(CLI::MultiOptionPolicy::Join)
      ->delimiter(',');
  app.add_option("--timeout", context.globals.timeout_seconds, "Deadline for single requests, seconds")
      ->check(CLI::PositiveNumber);
  app.add_flag("-q,--quiet", context.globals.quiet, "No progress output");
  CredentialFlags& credentials = context.globals.credentials;
  app.add_option("--token", credentials.token,
                 "API token (prefer --token-file, $MIGRATE_TOKEN, $MIGRATE_TOKEN_FILE or the config file: "
                 "command lines are visible to other users)");
  app.add_option("--token-file", credentials.token_file, "File holding the API token");
  app.add_option("--tls-ca", credentials.tls_ca, "Connect with TLS; PEM CA bundle for the server ($MIGRATE_TLS_CA)");
  app.add_option("--tls-server-name", credentials.tls_server_name,
                 "Name the server certificate must carry ($MIGRATE_TLS_SERVER_NAME)");
  app.add_option("--tls-cert", credentials.tls_cert, "Client certificate for mTLS ($MIGRATE_TLS_CERT)");
  app.add_option("--tls-key", credentials.tls_key, "Client key for mTLS ($MIGRATE_TLS_KEY)");
  app.require_subcommand(1);

  AddSubmitCommand(app, context);
  AddStatusCommand(app, context);
  AddWatchCommand(app, context);
  AddListCommand(app, context);
  AddFetchCommand(app, context);
  AddReportCommand(app, context);
  AddCancelCommand(app, context);
  AddTranslateCommand(app, context);
  AddAnalyzeCommand(app, context);

  std::vector<char*> argv;
  std::vector<std::string> storage(args);
  if (storage.empty()) storage.push_back("migrate-cli");
  for (auto& arg : storage) argv.push_back(arg.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::CallForHelp& help) {
    io.out << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp& help) {
    io.out << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    io.out << HIPFORGE_VERSION << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& error) {
    io.err << "migrate-cli: " << error.what() << "\n";
    io.err << "Run with --help for usage.\n";
    return kExitUsage;
  } catch (const ConnectionSetupError& error) {
    return context.Fail(error.status());
  } catch (const std::exception& error) {
    // Malformed report JSON from a server, filesystem errors: never a crash.
    io.err << "migrate-cli: " << error.what() << "\n";
    return kExitInternal;
  }
  return context.exit_code;
}

}  // namespace hipforge::client
