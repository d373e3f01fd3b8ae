#pragma once
// Runs migrate-cli in-process (RunCli) with captured output, and gives out closed loopback ports.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "client/commands/cli_context.h"
#include "tests/support/scratch_dir.h"

namespace hipforge::client::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline CliRun RunMigrateCli(std::vector<std::string> args) {
  args.insert(args.begin(), "migrate-cli");
  std::ostringstream out, err;
  BoostProcessLauncher launcher;
  CliRun run;
  run.exit_code = RunCli(args, CliIo{out, err, false}, launcher);
  run.out = out.str();
  run.err = err.str();
  return run;
}

// A loopback port nothing listens on (bound, then released).
inline int ClosedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

using ScratchDir = hipforge::testing::ScratchDir;  // tests/support/scratch_dir.h

}  // namespace hipforge::client::testing
