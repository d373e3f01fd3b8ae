// migrate-cli: hipforge's command-line client. All behaviour lives in client/commands and client/lib.
#include <unistd.h>

#include <csignal>
#include <iostream>

#include "client/commands/cli_context.h"
#include "common/redacting_log.h"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // `migrate-cli list | head` must not kill us mid-write
  // Library warnings (an archive skipping a symlink) once went to standard output, ahead of the job id that
  // `submit` prints there for scripts.
  hipforge::InstallRedactingDefaultLogger(/*to_stderr=*/true);
  std::vector<std::string> args(argv, argv + argc);
  hipforge::BoostProcessLauncher launcher;
  hipforge::client::CliIo io{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1};
  return hipforge::client::RunCli(args, io, launcher);
}
