#pragma once
// User code (build scripts, tests) runs under bubblewrap: no network, a fresh /dev holding only the
// leased GPU's render node plus /dev/kfd (or the NVIDIA nodes on the NVIDIA backend), the system and
// toolchain read-only, one writable work dir, and resource limits applied with prlimit inside.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "common/process.h"
#include "worker/userbuild/seccomp_policy.h"

namespace hipforge::validate {

struct ResourceLimits {
  int64_t cpu_seconds = 0;                     // RLIMIT_CPU; 0: none (the launcher's wall timeout still applies)
  int64_t address_space_bytes = 0;             // RLIMIT_AS; 0: none (GPU runtimes reserve huge virtual ranges)
  int64_t max_processes = 4096;                // RLIMIT_NPROC
  int64_t max_file_bytes = int64_t{32} << 30;  // RLIMIT_FSIZE
  int64_t max_open_files = 8192;               // RLIMIT_NOFILE
};

struct SandboxSpec {
  std::filesystem::path work_dir;  // bound read-write at the same path
  // A toolchain's root filesystem: its /usr, /bin, /lib*, /opt and /etc files become the system seen
  // inside. Empty: the host's own (the `host` toolchain).
  std::filesystem::path root;
  std::filesystem::path chdir;                         // cwd inside; empty: work_dir
  std::vector<std::filesystem::path> read_only_paths;  // toolchain roots etc. (bound at the same path)
  std::vector<std::filesystem::path> devices;          // e.g. /dev/kfd, /dev/dri/renderD128
  bool expose_sysfs = false;                           // GPU runtimes read topology from /sys; off for builds
  bool allow_network = false;
  ResourceLimits limits;
  // Runs the command through the seccomp helper (seccomp_policy.h); empty: no seccomp filter.
  std::filesystem::path exec_helper = DefaultSandboxExec();
};

// The full argv: bwrap <options> -- prlimit <limits> -- <command...>.
std::vector<std::string> SandboxCommand(const std::filesystem::path& bwrap, const std::filesystem::path& prlimit,
                                        const SandboxSpec& spec, const std::vector<std::string>& command);

// Render nodes and KFD for an AMD GPU; /dev/nvidiaN + control/UVM nodes for an NVIDIA one.
std::vector<std::filesystem::path> AmdDeviceNodes(const std::string& render_node);
std::vector<std::filesystem::path> NvidiaDeviceNodes(int index);

// Runs a trivial command under bwrap; an error (with bwrap's own words) when user namespaces or
// mounts are refused here, so the worker can report "sandbox unavailable" instead of failing jobs.
absl::Status ProbeSandbox(ProcessLauncher& launcher, const std::filesystem::path& bwrap);

// bubblewrap on PATH, else /usr/bin/bwrap: a host without the package can carry one (the GPU bundle does).
std::filesystem::path DefaultBwrap();

}  // namespace hipforge::validate

namespace hipforge::validate {

// Everything needed to start one user command: its built environment and, when sandboxing is on,
// the bubblewrap spec (the command's cwd must lie inside spec.work_dir).
struct ExecutionContext {
  std::map<std::string, std::string> environment;
  std::optional<SandboxSpec> sandbox;
  std::filesystem::path bwrap = DefaultBwrap();
  std::filesystem::path prlimit = "/usr/bin/prlimit";
  // The job was cancelled: a command in flight is killed (ProcessSpec::cancelled). May be null.
  const std::atomic<bool>* cancelled = nullptr;
};

ProcessSpec PrepareCommand(const ExecutionContext& context, const std::vector<std::string>& argv,
                           const std::filesystem::path& cwd, std::chrono::milliseconds timeout);

// `/bin/sh -c <command>` for manifest commands.
std::vector<std::string> ShellCommand(const std::string& command);

}  // namespace hipforge::validate
