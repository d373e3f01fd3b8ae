#pragma once
// What every migrate-cli subcommand receives: output streams, global options, a way to reach the
// server, and the exit-code convention. No globals: RunCli builds one context per invocation.
#ifndef HIPFORGE_VERSION
#define HIPFORGE_VERSION "dev"
#endif
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"
#include "client/lib/client_credentials.h"
#include "client/lib/exit_codes.h"
#include "client/lib/migration_client.h"
#include "common/process.h"

namespace hipforge::client {

struct CliIo {
  std::ostream& out;         // results (job ids, reports, tables): machine-readable
  std::ostream& err;         // progress and errors
  bool interactive = false;  // err is a terminal: draw progress bars
};

struct GlobalOptions {
  std::string server;           // --server (repeated: joined with commas); empty: MIGRATE_SERVER, then localhost:50051
  double timeout_seconds = 30;  // unary RPC deadline
  bool quiet = false;           // no progress output
  CredentialFlags credentials;  // --token, --token-file, --tls-*
};

class CliContext {
 public:
  CliContext(CliIo io, ProcessLauncher& launcher) : io_(io), launcher_(launcher) {}

  std::ostream& out() { return io_.out; }
  std::ostream& err() { return io_.err; }
  bool interactive() const { return io_.interactive && !globals.quiet; }
  ProcessLauncher& launcher() { return launcher_; }

  std::unique_ptr<MigrationClient> Connect();
  // Prints "migrate-cli: <message>" to err and returns the matching exit code.
  int Fail(const absl::Status& status);
  int Usage(const std::string& message);

  GlobalOptions globals;
  int exit_code = kExitOk;

 private:
  CliIo io_;
  ProcessLauncher& launcher_;
  bool uses_tls_ = false;  // the last Connect() used TLS (error messages say what to check)
};

// One per file in client/commands/.
void AddSubmitCommand(CLI::App& app, CliContext& context);
void AddStatusCommand(CLI::App& app, CliContext& context);
void AddWatchCommand(CLI::App& app, CliContext& context);
void AddListCommand(CLI::App& app, CliContext& context);
void AddFetchCommand(CLI::App& app, CliContext& context);
void AddReportCommand(CLI::App& app, CliContext& context);
void AddCancelCommand(CLI::App& app, CliContext& context);
void AddTranslateCommand(CLI::App& app, CliContext& context);
void AddAnalyzeCommand(CLI::App& app, CliContext& context);

// Shared by submit, watch and status: exit code for a job's final (or current) state.
int ExitCodeForJob(const hipforge::v1::Job& job);
// Follows a job with progress on err until it ends; returns the last seen job.
absl::StatusOr<hipforge::v1::Job> FollowJob(CliContext& context, MigrationClient& client, const std::string& job_id,
                                            double timeout_seconds);
// One-line summary: "<id> <state> <name> files 3/10".
std::string JobLine(const hipforge::v1::Job& job);
// Rule metadata for SARIF (the analyzer's catalog when it is built into this binary, else empty).
nlohmann::json RuleCatalogJson();

// Parses and runs one command line (argv[0] included). Returns the process exit code.
int RunCli(const std::vector<std::string>& args, CliIo io, ProcessLauncher& launcher);

}  // namespace hipforge::client
