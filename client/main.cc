// migrate-cli: hipforge's command-line client. All behaviour lives in client/commands and client/lib.
#include <unistd.h>

#include <csignal>
#include <iostream>

#include "client/commands/cli_context.h"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // `migrate-cli list | head` must not kill us mid-write
  std::vector<std::string> args(argv, argv + argc);
  hipforge::BoostProcessLauncher launcher;
  hipforge::client::CliIo io{std::cout, std::cerr, ::isatty(STDERR_FILENO) == 1};
  return hipforge::client::RunCli(args, io, launcher);
}
