#pragma once
// The seccomp filter of the validate sandbox. User builds and tests run as
//   bwrap ... -- prlimit ... -- hipforge-sandbox-exec -- <command>
// and hipforge-sandbox-exec installs this filter (inherited by every child, irrevocable) before it
// execs the command. The filter denies (EPERM) what builds, compilers and GPU tests do not need and
// an escape would: debugging other processes, mounts and namespaces, kernel modules, eBPF, perf
// events, keyrings, clock changes, raw I/O ports, userfaultfd. Measured against real hipcc, cmake,
// make and test runs in tests/userbuild/seccomp_policy_test.cc. x86-64 only; other ABIs are killed.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hipforge::validate {

// Names of the syscalls the filter refuses (for docs and tests).
const std::vector<std::string_view>& DeniedSyscalls();

// PR_SET_NO_NEW_PRIVS + the filter, for this process and its future children. Empty on success,
// else what failed (plain std::string: the helper links nothing but libc).
std::string InstallSandboxSeccompFilter();

// The helper next to the running executable (…/bin/hipforge-sandbox-exec), or empty when absent.
std::filesystem::path DefaultSandboxExec();

// The sandbox hook: binds `helper` read-only at a fixed path inside (bwrap options, before "--")
// and returns the command prefix that runs a command through it. No-op when `helper` is empty.
void AddSandboxExecBind(const std::filesystem::path& helper, std::vector<std::string>& bwrap_argv);
std::vector<std::string> SandboxExecPrefix(const std::filesystem::path& helper);

}  // namespace hipforge::validate
