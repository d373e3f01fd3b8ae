// migrate-cli's argument handling and exit codes that need no server.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "tests/client/cli_test_support.h"

namespace hipforge::client {
namespace {

using testing::ClosedPort;
using testing::RunMigrateCli;
using testing::ScratchDir;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CliArguments, HelpListsEverySubcommand) {
  auto run = RunMigrateCli({"--help"});
  EXPECT_EQ(run.exit_code, kExitOk);
  for (const char* name : {"submit", "status", "watch", "list", "fetch", "report", "cancel", "translate", "analyze"}) {
    EXPECT_TRUE(Contains(run.out, name)) << name;
  }
  auto submit_help = RunMigrateCli({"submit", "--help"});
  EXPECT_EQ(submit_help.exit_code, kExitOk);
  EXPECT_TRUE(Contains(submit_help.out, "--target"));
  EXPECT_TRUE(Contains(submit_help.out, "--wait"));
}

TEST(CliArguments, UsageErrorsExitOne) {
  ScratchDir repo("cli-args");
  const std::string path = repo.path().string();
  EXPECT_EQ(RunMigrateCli({}).exit_code, kExitUsage);                           // no subcommand
  EXPECT_EQ(RunMigrateCli({"frobnicate"}).exit_code, kExitUsage);               // unknown subcommand
  EXPECT_EQ(RunMigrateCli({"submit"}).exit_code, kExitUsage);                   // missing PATH
  EXPECT_EQ(RunMigrateCli({"submit", path + "/nope"}).exit_code, kExitUsage);   // not a directory
  EXPECT_EQ(RunMigrateCli({"submit", path, "--bogus"}).exit_code, kExitUsage);  // unknown option
  EXPECT_EQ(RunMigrateCli({"report", "job", "--format", "xml"}).exit_code, kExitUsage);
  EXPECT_EQ(RunMigrateCli({"report", "job", "--fail-on", "fatal"}).exit_code, kExitUsage);
  EXPECT_EQ(RunMigrateCli({"list", "--page-size", "0"}).exit_code, kExitUsage);
  EXPECT_EQ(RunMigrateCli({"fetch", "job"}).exit_code, kExitUsage);  // neither --out nor --patch
  EXPECT_EQ(RunMigrateCli({"--timeout", "-3", "list"}).exit_code, kExitUsage);
  EXPECT_EQ(RunMigrateCli({"translate", path}).exit_code, kExitUsage);  // missing -o

  auto needs_wait = RunMigrateCli({"submit", path, "--out", path + "/out"});
  EXPECT_EQ(needs_wait.exit_code, kExitUsage);
  EXPECT_TRUE(Contains(needs_wait.err, "need --wait")) << needs_wait.err;
  auto bad_label = RunMigrateCli({"submit", path, "--label", "novalue"});
  EXPECT_EQ(bad_label.exit_code, kExitUsage);
  EXPECT_TRUE(Contains(bad_label.err, "key=value")) << bad_label.err;
  auto bad_state = RunMigrateCli({"--server", "127.0.0.1:1", "list", "--state", "sleeping"});
  EXPECT_EQ(bad_state.exit_code, kExitUsage);
  EXPECT_TRUE(Contains(bad_state.err, "unknown job state")) << bad_state.err;
}

TEST(CliArguments, SeveralServersAreTriedInTurnAndNamedWhenNoneAnswers) {
  // The repeated flag and the comma list name the same replica set; neither server listens, so every attempt
  // (two per server) is refused and the error names both.
  const std::string a = "127.0.0.1:" + std::to_string(ClosedPort());
  const std::string b = "127.0.0.1:" + std::to_string(ClosedPort());
  for (const std::vector<std::string>& servers :
       {std::vector<std::string>{"--server", a, "--server", b}, std::vector<std::string>{"--server", a + "," + b}}) {
    std::vector<std::string> args = servers;
    args.insert(args.end(), {"--timeout", "5", "status", "0123456789abcdef"});
    auto run = RunMigrateCli(args);
    EXPECT_EQ(run.exit_code, kExitServerUnreachable) << run.err;
    EXPECT_TRUE(Contains(run.err, "(servers " + a + "," + b + ";")) << run.err;
  }
  auto malformed = RunMigrateCli({"--server", a + ",not-an-address", "status", "0123456789abcdef"});
  EXPECT_NE(malformed.exit_code, kExitOk);
  EXPECT_TRUE(Contains(malformed.err, "'not-an-address' is not HOST:PORT")) << malformed.err;
}

TEST(CliArguments, EmptyRepositoryIsRefusedBeforeConnecting) {
  ScratchDir repo("cli-empty");
  auto run = RunMigrateCli({"--server", "127.0.0.1:" + std::to_string(ClosedPort()), "submit", repo.path().string()});
  EXPECT_EQ(run.exit_code, kExitInputRejected);
  EXPECT_TRUE(Contains(run.err, "nothing to upload")) << run.err;
}

TEST(CliArguments, UnreachableServerExitsTwo) {
  const std::string server = "127.0.0.1:" + std::to_string(ClosedPort());
  auto status = RunMigrateCli({"--server", server, "--timeout", "5", "status", "some-job"});
  EXPECT_EQ(status.exit_code, kExitServerUnreachable) << status.err;
  EXPECT_TRUE(Contains(status.err, server)) << status.err;

  ScratchDir repo("cli-unreachable");
  std::ofstream(repo.path() / "a.cu") << "__global__ void k() {}\n";
  auto submit = RunMigrateCli({"--server", server, "submit", repo.path().string()});
  EXPECT_EQ(submit.exit_code, kExitServerUnreachable) << submit.err;
  EXPECT_TRUE(submit.out.empty());  // no job id printed
}

TEST(CliArguments, ServerComesFromTheEnvironmentWhenNoFlag) {
  const std::string server = "127.0.0.1:" + std::to_string(ClosedPort());
  ::setenv("MIGRATE_SERVER", server.c_str(), 1);
  auto run = RunMigrateCli({"--timeout", "5", "list"});
  ::unsetenv("MIGRATE_SERVER");
  EXPECT_EQ(run.exit_code, kExitServerUnreachable);
  EXPECT_TRUE(Contains(run.err, server)) << run.err;
  EXPECT_EQ(ResolveServerAddress(""), "localhost:50051");
  EXPECT_EQ(ResolveServerAddress("h:1"), "h:1");
}

TEST(CliArguments, ExitCodesForStatuses) {
  EXPECT_EQ(ExitCodeForStatus(absl::OkStatus()), kExitOk);
  EXPECT_EQ(ExitCodeForStatus(absl::UnavailableError("")), kExitServerUnreachable);
  EXPECT_EQ(ExitCodeForStatus(absl::NotFoundError("")), kExitNotFound);
  EXPECT_EQ(ExitCodeForStatus(absl::InvalidArgumentError("")), kExitInputRejected);
  EXPECT_EQ(ExitCodeForStatus(absl::ResourceExhaustedError("")), kExitInputRejected);
  EXPECT_EQ(ExitCodeForStatus(absl::DeadlineExceededError("")), kExitTimeout);
  EXPECT_EQ(ExitCodeForStatus(absl::InternalError("")), kExitInternal);
}

TEST(CliArguments, JobStateNamesRoundTrip) {
  for (auto state :
       {hipforge::v1::JOB_STATE_QUEUED, hipforge::v1::JOB_STATE_TRANSLATING, hipforge::v1::JOB_STATE_TRANSLATED,
        hipforge::v1::JOB_STATE_VALIDATING, hipforge::v1::JOB_STATE_SUCCEEDED, hipforge::v1::JOB_STATE_FAILED,
        hipforge::v1::JOB_STATE_CANCELLED}) {
    EXPECT_EQ(*ParseJobState(JobStateName(state)), state);
  }
  EXPECT_FALSE(ParseJobState("unspecified").ok());
}

}  // namespace
}  // namespace hipforge::client
