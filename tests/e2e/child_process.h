#pragma once
// A long-running child (migrate-server, migrate-worker) for end-to-end tests: started with
// fork/exec, output to a log file, signalled and reaped by pid. ProcessLauncher runs programs to
// completion, which these tests cannot use.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace hipforge::testing {

class ChildProcess {
 public:
  ChildProcess(std::vector<std::string> argv, std::filesystem::path log_file);
  ~ChildProcess();  // SIGKILL + reap if still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  void Signal(int signal);
  // Exit status (or 128+signal) once the child ended within `timeout`; nullopt otherwise.
  std::optional<int> Wait(std::chrono::milliseconds timeout);
  bool Running();
  std::string Log() const;

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::filesystem::path log_file_;
};

// migrate-server (`server_bin`) on loopback with gRPC and HTTP ports the OS picks, its data directory and the file it
// writes its port to: the start of every test's and bench's server command line (each adds its own flags).
std::vector<std::string> LocalServerArgv(const std::string& server_bin, const std::filesystem::path& data_dir,
                                         const std::filesystem::path& port_file);

// Reads an integer written by `--port-file` once it appears (or 0 after `timeout`).
int WaitForPortFile(const std::filesystem::path& path, std::chrono::milliseconds timeout);

}  // namespace hipforge::testing
