#include "worker/userbuild/sandbox.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/scratch_dir.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(SandboxCommandTest, ConstructsBwrapWithoutNetworkAndWithOnlyGivenDevices) {
  SandboxSpec spec{
      .work_dir = "/w/job", .read_only_paths = {"/opt/rocm-6.1"}, .devices = AmdDeviceNodes("/dev/dri/renderD129")};
  spec.limits.cpu_seconds = 600;
  auto argv = SandboxCommand("/usr/bin/bwrap", "/usr/bin/prlimit", spec, {"./test", "--fast"});
  const std::string joined = [&] {
    std::string s;
    for (const auto& a : argv) s += a + " ";
    return s;
  }();
  EXPECT_EQ(argv.front(), "/usr/bin/bwrap");
  EXPECT_THAT(joined, HasSubstr("--unshare-net"));
  EXPECT_THAT(joined, HasSubstr("--dev /dev"));
  EXPECT_THAT(joined, HasSubstr("--dev-bind-try /dev/kfd /dev/kfd"));
  EXPECT_THAT(joined, HasSubstr("--dev-bind-try /dev/dri/renderD129 /dev/dri/renderD129"));
  EXPECT_THAT(joined, HasSubstr("--ro-bind /opt/rocm-6.1 /opt/rocm-6.1"));
  EXPECT_THAT(joined, HasSubstr("--bind /w/job /w/job --chdir /w/job"));
  EXPECT_THAT(joined, HasSubstr("/usr/bin/prlimit --cpu=600"));
  EXPECT_THAT(joined, ::testing::EndsWith("-- ./test --fast "));
  EXPECT_THAT(joined, ::testing::Not(HasSubstr("--bind /sys")));
  EXPECT_THAT(joined, ::testing::Not(HasSubstr("/dev/dri/renderD128")));
}

class RealSandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto status = ProbeSandbox(launcher_, "/usr/bin/bwrap"); !status.ok()) {
      GTEST_SKIP() << "bubblewrap cannot run in this environment: " << status;
    }
  }
  ProcessResult RunInside(const std::string& script, const fs::path& work_dir, ResourceLimits limits = {}) {
    ExecutionContext context{.environment = {{"PATH", "/usr/bin:/bin"}},
                             .sandbox = SandboxSpec{.work_dir = work_dir, .limits = limits}};
    auto result = launcher_.Run(PrepareCommand(context, ShellCommand(script), work_dir, std::chrono::seconds(30)));
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{};
  }
  BoostProcessLauncher launcher_;
};

TEST_F(RealSandboxTest, BlocksNetworkEvenToTheHostsLoopback) {
  // A listener on the host's 127.0.0.1: reachable from outside, not from the sandbox's own netns.
  const int listener = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(listener, 4), 0);
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);
  testing::ScratchDir work("sandbox-net");
  const std::string probe = "python3 -c \"import socket; socket.create_connection(('127.0.0.1', " +
                            std::to_string(port) + "), 2); print('connected')\"";
  ProcessResult outside = *launcher_.Run({.argv = ShellCommand(probe)});
  EXPECT_EQ(outside.standard_output, "connected\n");
  ProcessResult inside = RunInside(probe + "; cat /proc/net/dev", work.path());
  EXPECT_THAT(inside.standard_output, ::testing::Not(HasSubstr("connected")));
  EXPECT_THAT(inside.standard_error, HasSubstr("Connection refused"));
  // Only the loopback interface exists inside.
  EXPECT_THAT(inside.standard_output, HasSubstr("lo:"));
  EXPECT_THAT(inside.standard_output, ::testing::Not(HasSubstr("eth0")));
  close(listener);
}

TEST_F(RealSandboxTest, WritesOnlyInsideTheWorkDir) {
  testing::ScratchDir work("sandbox-fs");
  testing::ScratchDir outside("sandbox-outside");
  const std::string marker = "/tmp/hipforge-sandbox-marker-" + std::to_string(getpid());
  ProcessResult r = RunInside(
      "echo ok > result.txt; echo x > /usr/hipforge-x 2>/dev/null || echo usr-denied; "
      "echo x > " +
          outside.path().string() +
          "/f 2>/dev/null || echo outside-denied; "
          "echo x > " +
          marker + " && echo tmp-private",
      work.path());
  EXPECT_EQ(r.exit_code, 0) << r.standard_error;
  EXPECT_THAT(r.standard_output, HasSubstr("usr-denied"));
  EXPECT_THAT(r.standard_output, HasSubstr("outside-denied"));
  EXPECT_THAT(r.standard_output, HasSubstr("tmp-private"));
  std::ifstream result(work.path() / "result.txt");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(result), {}), "ok\n");
  EXPECT_FALSE(fs::exists(outside.path() / "f"));
  EXPECT_FALSE(fs::exists(marker));  // /tmp inside is a private tmpfs
  EXPECT_FALSE(fs::exists("/usr/hipforge-x"));
}

TEST_F(RealSandboxTest, OnlyGivenDeviceNodesAndLimitsApply) {
  testing::ScratchDir work("sandbox-dev");
  ExecutionContext context{.environment = {{"PATH", "/usr/bin:/bin"}},
                           .sandbox = SandboxSpec{.work_dir = work.path(), .devices = {"/dev/fuse"}}};
  context.sandbox->limits.max_open_files = 321;
  auto r = launcher_.Run(PrepareCommand(context, ShellCommand("ls /dev; ulimit -n; ls /dev/dri 2>&1 | head -1"),
                                        work.path(), std::chrono::seconds(30)));
  ASSERT_TRUE(r.ok());
  if (fs::exists("/dev/fuse")) EXPECT_THAT(r->standard_output, HasSubstr("fuse"));
  EXPECT_THAT(r->standard_output, HasSubstr("321"));
  EXPECT_THAT(r->standard_output, ::testing::Not(HasSubstr("kfd")));
  if (fs::exists("/dev/loop0")) EXPECT_THAT(r->standard_output, ::testing::Not(HasSubstr("loop0")));  // host-only node
  EXPECT_THAT(r->standard_output, HasSubstr("No such file"));  // no /dev/dri at all
}

// The GPU host has no bubblewrap package; the bundle carries bwrap in its bin/, first on PATH. The worker looked only
// at /usr/bin/bwrap and ran no build discovery there (364 of ggml's files through the token fallback).
TEST(DefaultBwrapTest, TakesTheBwrapOnPathElseUsrBin) {
  testing::ScratchDir bin("bwrap-on-path");
  const fs::path carried = bin.path() / "bwrap";
  std::ofstream(carried) << "#!/bin/sh\nexec /usr/bin/bwrap \"$@\"\n";
  fs::permissions(carried, fs::perms::owner_all);
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::setenv("PATH", (bin.path().string() + ":" + saved).c_str(), 1);
  EXPECT_EQ(DefaultBwrap(), carried);
  EXPECT_EQ(ExecutionContext{}.bwrap, carried);
  ::setenv("PATH", "/nonexistent", 1);
  EXPECT_EQ(DefaultBwrap(), fs::path("/usr/bin/bwrap"));
  ::setenv("PATH", saved.c_str(), 1);
}

}  // namespace
}  // namespace hipforge::validate
