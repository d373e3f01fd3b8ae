// migrate-cli against a real migrate-server (embedded PostgreSQL or HIPFORGE_TEST_DATABASE_URL, one
// in-process worker with the translate and validate roles) on loopback: submit -> wait -> fetch -> report, and the
// error exits.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/client/cli_test_support.h"
#include "tests/support/token_cli.h"

namespace hipforge::client {
namespace {

namespace fs = std::filesystem;
using testing::CliRun;
using testing::RunMigrateCli;
using testing::ScratchDir;

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class CliAgainstServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch_ = new ScratchDir("cli-server");
    const fs::path port_file = scratch_->path() / "port";
    // HIPFORGE_MIGRATE_SERVER_BIN in the environment runs another build's server.
    const char* override_bin = std::getenv("HIPFORGE_MIGRATE_SERVER_BIN");
    std::vector<std::string> args = {
        override_bin != nullptr && *override_bin ? override_bin : HIPFORGE_MIGRATE_SERVER_BIN,
        "--listen",
        "127.0.0.1:0",
        "--http-listen",
        "127.0.0.1:0",
        "--data-dir",
        (scratch_->path() / "data").string(),
        "--local-workers",
        "1",
        "--local-worker-roles",
        "translate,validate",
        "--port-file",
        port_file.string(),
        "--embedded-durable",
        "false",
        "--log-level",
        "warn"};
    if (const char* url = std::getenv("HIPFORGE_TEST_DATABASE_URL"); url != nullptr && *url != '\0') {
      args.insert(args.end(), {"--database-url", url, "--database-schema", "cli_test_" + std::to_string(::getpid())});
    }
    const fs::path log = scratch_->path() / "server.log";
    server_pid_ = ::fork();
    if (server_pid_ == 0) {
      ::setpgid(0, 0);
      FILE* out = std::freopen(log.c_str(), "w", stdout);
      (void)out;
      ::dup2(STDOUT_FILENO, STDERR_FILENO);
      std::vector<char*> argv;
      for (auto& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      std::_Exit(127);
    }
    // Once the server is up, a token of team qa as an operator makes one (the command finds the
    // running server's database through its data dir or URL).
    std::vector<std::string> database_args = {"--data-dir", (scratch_->path() / "data").string()};
    if (const char* url = std::getenv("HIPFORGE_TEST_DATABASE_URL"); url != nullptr && *url != '\0') {
      database_args = {"--database-url", url, "--database-schema", "cli_test_" + std::to_string(::getpid())};
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(server_pid_, &status, WNOHANG) == server_pid_) {
        server_pid_ = -1;
        start_error_ = "migrate-server exited during start-up:\n" + ReadFile(log);
        return;
      }
      const std::string port = ReadFile(port_file);
      if (!port.empty() && std::isdigit(static_cast<unsigned char>(port[0]))) {
        server_ = "127.0.0.1:" + std::to_string(std::stoi(port));
        if (token_.empty()) {
          hipforge::testing::TokenCliResult created = hipforge::testing::CreateTeamToken(args[0], database_args, "qa");
          if (created.exit_code != 0) {
            start_error_ = "migrate-server token create failed:\n" + created.err;
            return;
          }
          token_ = created.token;
          server_bin_ = args[0];
          database_args_ = database_args;
        }
        if (RunMigrateCli({"--server", server_, "--token", token_, "--timeout", "5", "list", "--page-size", "1"})
                .exit_code == 0) {
          return;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    start_error_ = "migrate-server not ready after 4 minutes:\n" + ReadFile(log);
  }

  static void TearDownTestSuite() {
    if (server_pid_ > 0) {
      ::kill(-server_pid_, SIGTERM);
      int status = 0;
      for (int i = 0; i < 300 && ::waitpid(server_pid_, &status, WNOHANG) == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      ::kill(-server_pid_, SIGKILL);
      ::waitpid(server_pid_, &status, 0);
    }
    delete scratch_;
  }

  void SetUp() override {
    if (!start_error_.empty()) FAIL() << start_error_;
  }

  static CliRun Cli(std::vector<std::string> args) {
    args.insert(args.begin(), {"--server", server_, "--token", token_});
    return RunMigrateCli(std::move(args));
  }

  static fs::path ExampleRepo() { return fs::path(HIPFORGE_SOURCE_DIR) / "examples" / "cuda-vector-stats"; }

  static inline ScratchDir* scratch_ = nullptr;
  static inline pid_t server_pid_ = -1;
  static inline std::string server_;
  static inline std::string token_;
  static inline std::string start_error_;
  static inline std::string server_bin_;
  static inline std::vector<std::string> database_args_;
};

TEST_F(CliAgainstServer, SubmitWaitFetchAndReportTheExampleRepository) {
  ScratchDir outputs("cli-server-out");
  const fs::path tree = outputs.path() / "hip";
  const fs::path patch = outputs.path() / "translation.patch";
  auto submit =
      Cli({"submit", ExampleRepo().string(), "--wait", "--translate-only", "--out", tree.string(), "--patch",
           patch.string(), "--name", "cli-test", "--team", "qa", "--label", "suite=cli", "--wait-timeout", "600"});
  ASSERT_EQ(submit.exit_code, kExitOk) << submit.err;
  const std::string job_id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_FALSE(job_id.empty());
  EXPECT_TRUE(Contains(submit.err, "upload 100%")) << submit.err;
  EXPECT_TRUE(Contains(submit.err, "state: translating")) << submit.err;
  // Progress counts the example's 3 translation units, the report its 4 CUDA files (the header is translated with
  // the units): each count is named, and the step's summary ties them (issue 26: `translate 3/3`, then `4 of 4`).
  EXPECT_TRUE(Contains(submit.err, "\ntranslate unit 3/3 ")) << submit.err;
  EXPECT_TRUE(Contains(submit.err, "4 translated (4 CUDA files) from 3 translation units")) << submit.err;

  // The translated tree came back through SafeExtract, and the patch turns CUDA into HIP.
  EXPECT_TRUE(fs::exists(tree / "CMakeLists.txt"));
  EXPECT_TRUE(fs::exists(tree / "include" / "vector_stats.cuh") || fs::exists(tree / "include" / "vector_stats.hpp") ||
              fs::exists(tree / "include"));
  const std::string diff = ReadFile(patch);
  EXPECT_TRUE(Contains(diff, "+++ ")) << diff.substr(0, 400);
  EXPECT_TRUE(Contains(diff, "hip")) << diff.substr(0, 400);

  auto status = Cli({"status", job_id});
  EXPECT_EQ(status.exit_code, kExitOk);
  EXPECT_TRUE(Contains(status.out, "state:    succeeded")) << status.out;
  // status counts CUDA files as the report's 'CUDA files:' line does (the report's 'Translation: 10 files' counts all).
  EXPECT_TRUE(Contains(status.out, "\nprogress: 4/4 CUDA files translated\n")) << status.out;

  auto sarif_run = Cli({"report", job_id, "--format", "sarif"});
  ASSERT_EQ(sarif_run.exit_code, kExitOk) << sarif_run.err;
  const nlohmann::json sarif = nlohmann::json::parse(sarif_run.out);
  EXPECT_EQ(sarif["version"], "2.1.0");
  ASSERT_FALSE(sarif["runs"][0]["results"].empty()) << "the example has warp-size-32 code; expected findings";
  for (const auto& result : sarif["runs"][0]["results"]) {
    const std::string uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    EXPECT_NE(uri.front(), '/') << uri;
  }

  auto text = Cli({"report", job_id, "--format", "text"});
  EXPECT_EQ(text.exit_code, kExitOk);
  EXPECT_TRUE(Contains(text.out, "Translation:")) << text.out;
  auto junit = Cli({"report", job_id, "--format", "junit", "--output", (outputs.path() / "junit.xml").string()});
  EXPECT_EQ(junit.exit_code, kExitOk);
  EXPECT_TRUE(Contains(ReadFile(outputs.path() / "junit.xml"), "<testsuites"));
  // --fail-on note: the example surely has at least one finding at note level or worse.
  EXPECT_EQ(Cli({"report", job_id, "--format", "json", "--fail-on", "note"}).exit_code, kExitFindings);

  auto listed = Cli({"list", "--team", "qa", "--label", "suite=cli"});
  EXPECT_EQ(listed.exit_code, kExitOk);
  EXPECT_TRUE(Contains(listed.out, job_id)) << listed.out;
  EXPECT_FALSE(Contains(Cli({"list", "--team", "nobody"}).out, job_id));

  auto watch = Cli({"watch", job_id, "--wait-timeout", "60"});
  EXPECT_EQ(watch.exit_code, kExitOk) << watch.err;
  EXPECT_EQ(Cli({"cancel", job_id}).exit_code, kExitInputRejected);                         // already finished
  EXPECT_EQ(Cli({"fetch", job_id, "--out", tree.string()}).exit_code, kExitInputRejected);  // not empty
}

// --require gates a CI step on the verdict, not the state: a translate-only job succeeds but proves only that it
// translated, so requiring builds exits 10 with the verdict on stderr; requiring translated_only passes.
TEST_F(CliAgainstServer, RequireExitsTenWhenTheVerdictIsBelowIt) {
  auto builds = Cli({"submit", ExampleRepo().string(), "--wait", "--translate-only", "--require", "builds", "--team",
                     "qa", "--wait-timeout", "600"});
  EXPECT_EQ(builds.exit_code, kExitNotProved) << builds.err;
  EXPECT_TRUE(Contains(builds.err, "proved less than --require builds: translated only")) << builds.err;
  auto translated = Cli({"submit", ExampleRepo().string(), "--wait", "--translate-only", "--require", "translated_only",
                         "--team", "qa", "--wait-timeout", "600"});
  EXPECT_EQ(translated.exit_code, kExitOk) << translated.err;
  EXPECT_EQ(Cli({"submit", ExampleRepo().string(), "--require", "passed"}).exit_code, kExitUsage);
}

// The 8 characters `list` and the dashboard show name the job in every command; another team's token does not
// see it (exit 6, as for an unknown id).
TEST_F(CliAgainstServer, AnEightCharacterIdPrefixWorksInStatusReportAndFetch) {
  auto submit = Cli(
      {"submit", ExampleRepo().string(), "--wait", "--translate-only", "--name", "short-id", "--wait-timeout", "600"});
  ASSERT_EQ(submit.exit_code, kExitOk) << submit.err;
  const std::string job_id = submit.out.substr(0, submit.out.find('\n'));
  ASSERT_EQ(job_id.size(), 36u) << submit.out;
  const std::string short_id = job_id.substr(0, 8);

  auto status = Cli({"status", short_id});
  EXPECT_EQ(status.exit_code, kExitOk) << status.err;
  EXPECT_TRUE(Contains(status.out, "job:      " + job_id)) << status.out;
  auto report = Cli({"report", short_id, "--format", "json"});
  ASSERT_EQ(report.exit_code, kExitOk) << report.err;
  EXPECT_EQ(nlohmann::json::parse(report.out).value("job_id", ""), job_id);
  ScratchDir outputs("cli-short-id");
  auto fetch = Cli(
      {"fetch", short_id, "--out", (outputs.path() / "hip").string(), "--patch", (outputs.path() / "p.diff").string()});
  EXPECT_EQ(fetch.exit_code, kExitOk) << fetch.err;
  EXPECT_TRUE(fs::exists(outputs.path() / "hip" / "CMakeLists.txt"));
  EXPECT_TRUE(Contains(ReadFile(outputs.path() / "p.diff"), "+++ "));
  EXPECT_EQ(Cli({"watch", short_id, "--wait-timeout", "60"}).exit_code, kExitOk);
  EXPECT_EQ(Cli({"status", job_id.substr(0, 5)}).exit_code, kExitInputRejected) << "too short to be an id";

  hipforge::testing::TokenCliResult other = hipforge::testing::CreateTeamToken(server_bin_, database_args_, "other");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  for (const std::string& command : {"status", "report"}) {
    auto run = RunMigrateCli({"--server", server_, "--token", other.token, command, short_id});
    EXPECT_EQ(run.exit_code, kExitNotFound) << command << ": " << run.err;
  }
}

// status counts what was uploaded and what was retried (issue 26): a 3-file upload read `input: 0 files` (the
// server stored no count), and a job whose translate and validate tasks each ran once read `attempts: 2` (the
// attempts of its tasks were summed). The validate task runs whatever it finds to build (exit 0 or 3).
TEST_F(CliAgainstServer, StatusCountsTheUploadedFilesAndNoRetryIsOneAttempt) {
  ScratchDir repo("cli-three-files");
  fs::create_directories(repo.path() / "src");
  std::ofstream(repo.path() / "src" / "k.cu") << "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"
                                                 "int main() { float* x; cudaMalloc(&x, 64); k<<<1, 16>>>(x); }\n";
  std::ofstream(repo.path() / "Makefile") << "k: src/k.cu\n\tnvcc -o k src/k.cu\n";
  std::ofstream(repo.path() / "README.md") << "three files\n";
  auto submit = Cli({"submit", repo.path().string(), "--no-git", "--target", "gfx90a", "--wait", "--name",
                     "three-files", "--wait-timeout", "600"});
  ASSERT_TRUE(submit.exit_code == kExitOk || submit.exit_code == kExitJobFailed) << submit.err;
  EXPECT_TRUE(Contains(submit.err, "-> validating")) << "no validate task ran:\n" << submit.err;
  const std::string job_id = submit.out.substr(0, submit.out.find('\n'));

  auto status = Cli({"status", job_id});
  EXPECT_TRUE(Contains(status.out, "\ninput:    3 files, ")) << status.out;
  EXPECT_TRUE(Contains(status.out, "\nattempts: 1\n")) << status.out;
  auto json = Cli({"status", job_id, "--json"});
  ASSERT_FALSE(json.out.empty()) << json.err;
  const nlohmann::json job = nlohmann::json::parse(json.out);
  EXPECT_EQ(job.value("input_files", 0), 3) << json.out;
  EXPECT_EQ(job.value("attempts", 0), 1) << json.out;
}

// A CI script that retries a submit (exit 2 with one server) gives the same --request-id each time: a try whose
// answer was lost made the job, and the next try answers with it instead of making another (issue 27).
TEST_F(CliAgainstServer, SubmitWithARequestIdItSentBeforeAnswersWithThatJob) {
  ScratchDir repo("cli-request-id");
  std::ofstream(repo.path() / "k.cu") << "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n";
  const std::vector<std::string> submit = {"submit",           repo.path().string(), "--no-git",
                                           "--translate-only", "--request-id",       "pipeline-981.job-3"};
  auto first = Cli(submit);
  ASSERT_EQ(first.exit_code, kExitOk) << first.err;
  auto again = Cli(submit);
  ASSERT_EQ(again.exit_code, kExitOk) << again.err;
  EXPECT_EQ(again.out, first.out);
  auto other = Cli({"submit", repo.path().string(), "--no-git", "--translate-only"});
  ASSERT_EQ(other.exit_code, kExitOk) << other.err;
  EXPECT_NE(other.out, first.out);
  auto malformed = Cli({"submit", repo.path().string(), "--no-git", "--request-id", "has space"});
  EXPECT_EQ(malformed.exit_code, kExitInputRejected) << malformed.err;
  EXPECT_TRUE(Contains(malformed.err, "submit request id")) << malformed.err;
}

TEST_F(CliAgainstServer, UnknownJobsExitSix) {
  EXPECT_EQ(Cli({"status", "00000000-0000-0000-0000-000000000000"}).exit_code, kExitNotFound);
  EXPECT_EQ(Cli({"report", "00000000-0000-0000-0000-000000000000"}).exit_code, kExitNotFound);
}

// What scripts read from submit's standard output is the job id alone: a library warning (the archive skipping a
// symlink that leaves the tree, as HeCBench's geodesic has) goes to standard error.
TEST_F(CliAgainstServer, SubmitPrintsOnlyTheJobIdOnStandardOutputWhenTheArchiveWarns) {
  ScratchDir repo("cli-outside-symlink");
  std::ofstream(repo.path() / "k.cu") << "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n";
  fs::create_symlink("../elsewhere/locations.txt", repo.path() / "locations.txt");
  // The binary itself: its main() sets up where log lines go.
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = {HIPFORGE_MIGRATE_CLI_BIN, "--server",        server_, "--token", token_, "submit",
               repo.path().string(),     "--translate-only"};
  spec.timeout = std::chrono::minutes(2);
  absl::StatusOr<ProcessResult> run = launcher.Run(spec);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->exit_code, 0) << run->standard_error;
  EXPECT_TRUE(std::regex_match(run->standard_output,
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n")))
      << run->standard_output;
  EXPECT_TRUE(Contains(run->standard_error, "skipping symlink")) << run->standard_error;
}

TEST_F(CliAgainstServer, RepositoryWithoutCudaIsRejectedWithExitSeven) {
  ScratchDir repo("cli-no-cuda");
  std::ofstream(repo.path() / "main.py") << "print('no CUDA here')\n";
  auto run = Cli({"submit", repo.path().string(), "--wait"});
  EXPECT_EQ(run.exit_code, kExitInputRejected) << run.err;
  EXPECT_TRUE(Contains(run.err, "CUDA")) << run.err;
  EXPECT_TRUE(run.out.empty());
}

}  // namespace
}  // namespace hipforge::client
