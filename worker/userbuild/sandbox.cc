#include "worker/userbuild/sandbox.h"

#include <system_error>

#include "absl/strings/str_cat.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

// `dir` as seen inside, taken from `root` (empty: the host). Merged-/usr systems have /bin -> usr/bin:
// recreate the link instead of binding through it.
void AddSystemDir(std::vector<std::string>& argv, const fs::path& root, const fs::path& dir) {
  std::error_code ec;
  const fs::path source = root.empty() ? dir : root / dir.relative_path();
  if (fs::is_symlink(source, ec)) {
    argv.insert(argv.end(), {"--symlink", fs::read_symlink(source, ec).string(), dir.string()});
  } else if (fs::exists(source, ec)) {
    argv.insert(argv.end(), {"--ro-bind", source.string(), dir.string()});
  }
}

// The namespaces every sandbox unshares. The probe uses the same ones: a new PID namespace needs a fresh /proc
// mount, which a container that masks parts of its /proc (podman, Kubernetes) refuses even where bwrap runs.
constexpr const char* kNamespaceFlags[] = {"--unshare-user-try", "--unshare-ipc", "--unshare-pid", "--unshare-uts",
                                           "--unshare-cgroup-try"};

}  // namespace

std::vector<std::string> SandboxCommand(const fs::path& bwrap, const fs::path& prlimit, const SandboxSpec& spec,
                                        const std::vector<std::string>& command) {
  std::vector<std::string> argv = {bwrap.string(), "--die-with-parent", "--new-session"};
  argv.insert(argv.end(), std::begin(kNamespaceFlags), std::end(kNamespaceFlags));
  if (!spec.allow_network) argv.push_back("--unshare-net");
  for (const char* dir : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"}) {
    AddSystemDir(argv, spec.root, dir);
  }
  // Only what programs need from /etc: the loader cache, users, alternatives symlinks, OpenCL/HIP vendors.
  for (const char* file : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                           "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/OpenCL", "/etc/localtime"}) {
    const std::string source = spec.root.empty() ? file : (spec.root / fs::path(file).relative_path()).string();
    argv.insert(argv.end(), {"--ro-bind-try", source, file});
  }
  for (const fs::path& path : spec.read_only_paths) {
    argv.insert(argv.end(), {"--ro-bind", path.string(), path.string()});
  }
  argv.insert(argv.end(), {"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
  for (const fs::path& device : spec.devices) {
    argv.insert(argv.end(), {"--dev-bind-try", device.string(), device.string()});
  }
  if (spec.expose_sysfs) argv.insert(argv.end(), {"--ro-bind", "/sys", "/sys"});
  const fs::path chdir = spec.chdir.empty() ? spec.work_dir : spec.chdir;
  AddSandboxExecBind(spec.exec_helper, argv);
  argv.insert(argv.end(), {"--bind", spec.work_dir.string(), spec.work_dir.string(), "--chdir", chdir.string(), "--"});

  argv.push_back(prlimit.string());
  const ResourceLimits& l = spec.limits;
  if (l.cpu_seconds > 0) argv.push_back(absl::StrCat("--cpu=", l.cpu_seconds));
  if (l.address_space_bytes > 0) argv.push_back(absl::StrCat("--as=", l.address_space_bytes));
  if (l.max_processes > 0) argv.push_back(absl::StrCat("--nproc=", l.max_processes));
  if (l.max_file_bytes > 0) argv.push_back(absl::StrCat("--fsize=", l.max_file_bytes));
  if (l.max_open_files > 0) argv.push_back(absl::StrCat("--nofile=", l.max_open_files));
  argv.push_back("--");
  for (std::string& part : SandboxExecPrefix(spec.exec_helper)) argv.push_back(std::move(part));
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

std::vector<fs::path> AmdDeviceNodes(const std::string& render_node) {
  std::vector<fs::path> nodes = {"/dev/kfd"};
  if (!render_node.empty()) nodes.emplace_back(render_node);
  return nodes;
}

std::vector<fs::path> NvidiaDeviceNodes(int index) {
  std::vector<fs::path> nodes = {absl::StrCat("/dev/nvidia", index)};
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"}) {
    if (fs::exists(node)) nodes.emplace_back(node);
  }
  return nodes;
}

fs::path DefaultBwrap() {
  const fs::path found = FindProgram("bwrap");
  return found.empty() ? fs::path("/usr/bin/bwrap") : found;
}

absl::Status ProbeSandbox(ProcessLauncher& launcher, const fs::path& bwrap) {
  if (bwrap.empty() || !fs::exists(bwrap)) return absl::UnavailableError("bubblewrap (bwrap) is not installed");
  ProcessSpec spec;
  spec.argv = {bwrap.string()};
  spec.argv.insert(spec.argv.end(), std::begin(kNamespaceFlags), std::end(kNamespaceFlags));
  spec.argv.insert(spec.argv.end(),
                   {"--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"});
  spec.timeout = std::chrono::seconds(20);
  auto result = launcher.Run(spec);
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    return absl::UnavailableError(
        absl::StrCat("bwrap cannot create a sandbox here (exit ", result->exit_code, "): ", result->standard_error));
  }
  return absl::OkStatus();
}

ProcessSpec PrepareCommand(const ExecutionContext& context, const std::vector<std::string>& argv, const fs::path& cwd,
                           std::chrono::milliseconds timeout) {
  ProcessSpec spec;
  spec.environment = context.environment;
  spec.replace_environment = true;  // built, never inherited
  spec.timeout = timeout;
  spec.cancelled = context.cancelled;
  spec.working_directory = cwd;
  if (context.sandbox) {
    SandboxSpec sandbox = *context.sandbox;
    if (!cwd.empty()) sandbox.chdir = cwd;
    spec.argv = SandboxCommand(context.bwrap, context.prlimit, sandbox, argv);
  } else {
    spec.argv = argv;
  }
  return spec;
}

std::vector<std::string> ShellCommand(const std::string& command) { return {"/bin/sh", "-c", command}; }

}  // namespace hipforge::validate
