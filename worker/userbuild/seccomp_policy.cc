#include "worker/userbuild/seccomp_policy.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kInsidePath = "/run/hipforge-sandbox-exec";

#if defined(__x86_64__)
struct Denied {
  int number;
  std::string_view name;
};

const std::vector<Denied>& DeniedTable() {
  static const std::vector<Denied> table = {
      {SYS_ptrace, "ptrace"},
      {SYS_process_vm_readv, "process_vm_readv"},
      {SYS_process_vm_writev, "process_vm_writev"},
      {SYS_mount, "mount"},
      {SYS_umount2, "umount2"},
      {SYS_pivot_root, "pivot_root"},
      {SYS_move_mount, "move_mount"},
      {SYS_open_tree, "open_tree"},
      {SYS_fsopen, "fsopen"},
      {SYS_fsconfig, "fsconfig"},
      {SYS_fsmount, "fsmount"},
      {SYS_fspick, "fspick"},
      {SYS_mount_setattr, "mount_setattr"},
      {SYS_unshare, "unshare"},
      {SYS_setns, "setns"},
      {SYS_init_module, "init_module"},
      {SYS_finit_module, "finit_module"},
      {SYS_delete_module, "delete_module"},
      {SYS_kexec_load, "kexec_load"},
      {SYS_kexec_file_load, "kexec_file_load"},
      {SYS_reboot, "reboot"},
      {SYS_swapon, "swapon"},
      {SYS_swapoff, "swapoff"},
      {SYS_bpf, "bpf"},
      {SYS_perf_event_open, "perf_event_open"},
      {SYS_keyctl, "keyctl"},
      {SYS_add_key, "add_key"},
      {SYS_request_key, "request_key"},
      {SYS_userfaultfd, "userfaultfd"},
      {SYS_open_by_handle_at, "open_by_handle_at"},
      {SYS_iopl, "iopl"},
      {SYS_ioperm, "ioperm"},
      {SYS_syslog, "syslog"},
      {SYS_acct, "acct"},
      {SYS_quotactl, "quotactl"},
      {SYS_settimeofday, "settimeofday"},
      {SYS_clock_settime, "clock_settime"},
      {SYS_clock_adjtime, "clock_adjtime"},
      {SYS_adjtimex, "adjtimex"},
      {SYS_lookup_dcookie, "lookup_dcookie"},
  };
  return table;
}

// New namespaces through clone(2); clone3 passes flags in memory, which a filter cannot read, so it
// answers ENOSYS and glibc falls back to clone.
constexpr uint32_t kNamespaceFlags =
    CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;

std::vector<sock_filter> Program() {
  std::vector<sock_filter> p;
  auto stmt = [&](uint16_t code, uint32_t k) { p.push_back(BPF_STMT(code, k)); };
  auto jump = [&](uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { p.push_back(BPF_JUMP(code, k, jt, jf)); };
  constexpr uint32_t kErrno = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  constexpr uint32_t kNoSys = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

  stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
  jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);  // the x32 ABI
  stmt(BPF_RET | BPF_K, kErrno);
  jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
  stmt(BPF_RET | BPF_K, kNoSys);
  jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
  stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]));  // low 32 bits of the flags
  jump(BPF_JMP | BPF_JSET | BPF_K, kNamespaceFlags, 0, 1);
  stmt(BPF_RET | BPF_K, kErrno);
  stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  for (const Denied& denied : DeniedTable()) {
    jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(denied.number), 0, 1);
    stmt(BPF_RET | BPF_K, kErrno);
  }
  stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  return p;
}
#endif

}  // namespace

const std::vector<std::string_view>& DeniedSyscalls() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
#if defined(__x86_64__)
    for (const Denied& denied : DeniedTable()) out.push_back(denied.name);
    out.push_back("clone with namespace flags");
#endif
    return out;
  }();
  return names;
}

std::string InstallSandboxSeccompFilter() {
#if defined(__x86_64__)
  std::vector<sock_filter> program = Program();
  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
  if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) {
    return std::string("seccomp: ") + std::strerror(errno);
  }
  return "";
#else
  return "the sandbox seccomp filter is written for x86-64";
#endif
}

fs::path DefaultSandboxExec() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path helper = self.parent_path() / "hipforge-sandbox-exec";
  return fs::exists(helper, ec) ? helper : fs::path();
}

void AddSandboxExecBind(const fs::path& helper, std::vector<std::string>& bwrap_argv) {
  if (helper.empty()) return;
  bwrap_argv.insert(bwrap_argv.end(), {"--ro-bind", helper.string(), kInsidePath});
}

std::vector<std::string> SandboxExecPrefix(const fs::path& helper) {
  if (helper.empty()) return {};
  return {kInsidePath, "--"};
}

}  // namespace hipforge::validate
