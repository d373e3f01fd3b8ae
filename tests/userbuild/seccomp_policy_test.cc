// The validate sandbox's seccomp filter: what it refuses (checked syscall by syscall in a child that
// installed it) and that real user work still runs under it (hipcc, cmake + make, a threaded test),
// inside the real bubblewrap sandbox when this machine allows one.
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/process.h"
#include "worker/userbuild/sandbox.h"
#include "worker/userbuild/seccomp_policy.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;

// Runs `body` in a forked child that installed the filter; returns the child's exit code.
int InFilteredChild(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!InstallSandboxSeccompFilter().empty()) ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// 0 when the call failed with `expected`, 1 when it succeeded, 2 for another errno.
int Expect(long result, int expected) {
  if (result != -1) return 1;
  return errno == expected ? 0 : 2;
}

TEST(SeccompPolicyTest, RefusesEscapeSyscallsWithEperm) {
  struct Case {
    const char* name;
    std::function<long()> call;
    int expected;
  };
  const std::vector<Case> cases = {
      {"ptrace", [] { return ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr); }, EPERM},
      {"mount", [] { return static_cast<long>(::mount("none", "/tmp", "tmpfs", 0, nullptr)); }, EPERM},
      {"unshare(user)", [] { return static_cast<long>(::unshare(CLONE_NEWUSER)); }, EPERM},
      {"setns", [] { return static_cast<long>(::setns(0, 0)); }, EPERM},
      {"clone(newns)", [] { return ::syscall(SYS_clone, CLONE_NEWNS | SIGCHLD, nullptr, nullptr, nullptr, 0); }, EPERM},
      {"clone3", [] { return ::syscall(SYS_clone3, nullptr, 0); }, ENOSYS},
      {"bpf", [] { return ::syscall(SYS_bpf, 0, nullptr, 0); }, EPERM},
      {"perf_event_open",
       [] {
         perf_event_attr attr{};
         attr.size = sizeof attr;
         return ::syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
       },
       EPERM},
      {"keyctl", [] { return ::syscall(SYS_keyctl, 0, 0, 0, 0, 0); }, EPERM},
      {"init_module", [] { return ::syscall(SYS_init_module, nullptr, 0, ""); }, EPERM},
      {"userfaultfd", [] { return ::syscall(SYS_userfaultfd, 0); }, EPERM},
      {"process_vm_readv", [] { return ::syscall(SYS_process_vm_readv, 1, nullptr, 0, nullptr, 0, 0); }, EPERM},
      {"clock_settime",
       [] {
         timespec now{};
         return static_cast<long>(::clock_settime(CLOCK_REALTIME, &now));
       },
       EPERM},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(InFilteredChild([&] { return Expect(c.call(), c.expected); }), 0) << c.name;
  }
  EXPECT_GE(DeniedSyscalls().size(), 40u);
}

TEST(SeccompPolicyTest, OrdinaryProcessWorkStillRuns) {
  // fork/exec, threads (glibc falls back from clone3 to clone), files, pipes.
  EXPECT_EQ(InFilteredChild([] {
              std::thread worker([] {});
              worker.join();
              const pid_t child = ::fork();
              if (child == 0) {
                ::execl("/bin/sh", "sh", "-c", "echo ok > /dev/null && exit 7", nullptr);
                ::_exit(99);
              }
              int status = 0;
              ::waitpid(child, &status, 0);
              return WIFEXITED(status) && WEXITSTATUS(status) == 7 ? 0 : 1;
            }),
            0);
}

class SeccompRealWorkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hipforge-seccomp-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    sandboxed_ = ProbeSandbox(launcher_, "/usr/bin/bwrap").ok();
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  // Under bwrap + the helper when bwrap works here, else the helper alone.
  ProcessResult Run(const std::string& script) {
    ExecutionContext context;
    context.environment = {{"PATH", "/usr/bin:/bin"}, {"HOME", dir_.string()}};
    if (sandboxed_) {
      context.sandbox = SandboxSpec{.work_dir = dir_};
      context.sandbox->exec_helper = HIPFORGE_SANDBOX_EXEC;
    }
    ProcessSpec spec = PrepareCommand(context, ShellCommand(script), dir_, std::chrono::minutes(5));
    if (!sandboxed_) spec.argv.insert(spec.argv.begin(), {HIPFORGE_SANDBOX_EXEC, "--"});
    absl::StatusOr<ProcessResult> result = launcher_.Run(spec);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }
  fs::path dir_;
  bool sandboxed_ = false;
  BoostProcessLauncher launcher_;
};

TEST_F(SeccompRealWorkTest, TheFilterIsOnInsideTheSandbox) {
  const ProcessResult result = Run("unshare -U true; echo status=$?");
  EXPECT_THAT(result.standard_output, ::testing::HasSubstr("status=1")) << result.standard_error;
  EXPECT_THAT(result.standard_error, ::testing::HasSubstr("Operation not permitted"));
}

TEST_F(SeccompRealWorkTest, CmakeMakeAndAThreadedTestRun) {
  std::ofstream(dir_ / "CMakeLists.txt") << "cmake_minimum_required(VERSION 3.18)\nproject(p CXX)\n"
                                            "find_package(Threads REQUIRED)\nadd_executable(t t.cc)\n"
                                            "target_link_libraries(t Threads::Threads)\n";
  std::ofstream(dir_ / "t.cc") << "#include <thread>\n#include <vector>\n#include <cstdio>\nint main(){"
                                  "std::vector<std::thread> ts; int n[8]={};"
                                  "for(int i=0;i<8;++i) ts.emplace_back([&n,i]{n[i]=i;});"
                                  "for(auto& t:ts) t.join(); int s=0; for(int v:n) s+=v;"
                                  "std::printf(\"sum=%d\\n\", s); return s==28?0:1;}\n";
  const ProcessResult result = Run("cmake -S . -B b >/dev/null && make -C b >/dev/null && ./b/t");
  EXPECT_EQ(result.exit_code, 0) << result.standard_output << result.standard_error;
  EXPECT_THAT(result.standard_output, ::testing::HasSubstr("sum=28"));
}

TEST_F(SeccompRealWorkTest, HipccCompilesForGfx90a) {
  if (!fs::exists("/usr/bin/hipcc")) GTEST_SKIP() << "no hipcc on this machine";
  std::ofstream(dir_ / "k.hip") << "#include <hip/hip_runtime.h>\n__global__ void k(float* x){x[threadIdx.x]*=2;}\n"
                                   "int main(){float* d; hipMalloc(&d, 4*64); k<<<1,64>>>(d); hipFree(d);}\n";
  const ProcessResult result = Run("hipcc --offload-arch=gfx90a -o k k.hip && test -x k && echo built");
  EXPECT_EQ(result.exit_code, 0) << result.standard_error;
  EXPECT_THAT(result.standard_output, ::testing::HasSubstr("built"));
}

}  // namespace
}  // namespace hipforge::validate
