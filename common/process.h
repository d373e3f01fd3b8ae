#pragma once
// Running external programs (initdb, pg_ctl, hipcc, cmake, user tests) behind an interface,
// so components take a launcher in their constructor and tests can pass the real one or a fake.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace hipforge {

struct ProcessSpec {
  std::vector<std::string> argv;            // argv[0] is resolved through PATH when it has no '/'.
  std::filesystem::path working_directory;  // empty: inherit
  // The child's whole environment when `replace_environment` is true; otherwise these entries are
  // laid over the parent's environment.
  std::map<std::string, std::string> environment;
  bool replace_environment = false;
  std::optional<std::string> standard_input;
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  size_t max_output_bytes = 16 << 20;  // per stream; the rest is dropped and `output_truncated` set
  // When set and it becomes true while the child runs (e.g. its job was cancelled), the child's process group is
  // killed as on a timeout and the result says `cancelled`. Must outlive the Run call.
  const std::atomic<bool>* cancelled = nullptr;
};

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal or timed out
  bool timed_out = false;
  bool cancelled = false;  // killed because ProcessSpec::cancelled became true
  bool output_truncated = false;
  std::string standard_output;
  std::string standard_error;
  std::chrono::milliseconds wall_time{0};
};

class ProcessLauncher {
 public:
  virtual ~ProcessLauncher() = default;
  // Returns an error status only when the program could not be started at all; a non-zero exit
  // is a successful launch with `exit_code` set.
  virtual absl::StatusOr<ProcessResult> Run(const ProcessSpec& spec) = 0;
};

// Boost.Process implementation: output is captured through temporary files so large outputs
// cannot dead-lock the pipes, and a child that outlives its timeout is killed with its group.
class BoostProcessLauncher final : public ProcessLauncher {
 public:
  absl::StatusOr<ProcessResult> Run(const ProcessSpec& spec) override;
};

// Looks a program up on PATH; empty when absent.
std::filesystem::path FindProgram(const std::string& name);

// The CPUs this process may run on (its affinity mask: a container's cpuset), at least 1: the default parallelism
// of builds, translation and analysis.
unsigned UsableCpus();

}  // namespace hipforge
