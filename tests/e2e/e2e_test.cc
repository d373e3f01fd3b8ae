// End to end through the real binaries: migrate-server and migrate-worker processes, real
// PostgreSQL, gRPC on loopback, the real translation library in the worker.
#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "client/lib/migration_client.h"
#include "common/archive.h"
#include "common/grpc_channel.h"
#include "common/process.h"
#include "hipforge/v1/migration_service.grpc.pb.h"
#include "tests/common/report_wire.h"
#include "tests/e2e/child_process.h"
#include "tests/e2e/large_cuda_repo.h"
#include "tests/e2e/report_paths.h"
#include "tests/server/http/http_test_client.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/store/postgres_test_env.h"
#include "tests/support/token_cli.h"

namespace hipforge::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using server::testing::FetchAll;
using server::testing::IsFinal;
using server::testing::SubmitArchive;
using ::testing::HasSubstr;

class EndToEndTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hipforge-e2e-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    temp_dir_ = pattern;
    schema_ = server::testing::FreshSchemaName();
  }
  void TearDown() override {
    workers_.clear();
    if (server_) {
      server_->Signal(SIGTERM);
      server_->Wait(30s);
    }
    server_.reset();
    std::error_code ignored;
    if (!::testing::Test::HasFailure()) fs::remove_all(temp_dir_, ignored);
  }

  // embedded: no --database-url, the server owns a PostgreSQL cluster in its data dir.
  void StartServer(bool embedded = false, std::vector<std::string> extra = {}) {
    const fs::path port_file = temp_dir_ / "port";
    fs::remove(port_file);
    std::vector<std::string> argv = LocalServerArgv(HIPFORGE_SERVER_BIN, temp_dir_ / "data", port_file);
    argv.insert(argv.end(), {"--lease-ms", "3000", "--rescue-interval-ms", "200"});
    if (!embedded) {
      const std::string& url = server::testing::TestDatabaseUrl();
      ASSERT_FALSE(url.empty()) << "no PostgreSQL for the test";
      argv.insert(argv.end(), {"--database-url", url, "--database-schema", schema_});
    } else {
      argv.insert(argv.end(), {"--embedded-durable", "false"});
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ChildProcess>(argv, temp_dir_ / "server.log");
    port_ = WaitForPortFile(port_file, 120s);
    ASSERT_GT(port_, 0) << "server did not start:\n" << server_->Log();
    // Credentials as an operator makes them, against the running server's database.
    std::vector<std::string> database_args = {"--data-dir", (temp_dir_ / "data").string()};
    if (!embedded) {
      database_args = {"--database-url", server::testing::TestDatabaseUrl(), "--database-schema", schema_};
    }
    TokenCliResult team = CreateTeamToken(HIPFORGE_SERVER_BIN, database_args, "e2e");
    ASSERT_EQ(team.exit_code, 0) << team.err;
    token_ = team.token;
    TokenCliResult worker = CreateWorkerCredential(HIPFORGE_SERVER_BIN, database_args, "e2e", "translate");
    ASSERT_EQ(worker.exit_code, 0) << worker.err;
    worker_token_file_ = temp_dir_ / "worker.token";
    WriteSecretFile(worker_token_file_, worker.token);
    ChannelSecurity security;
    security.token = token_;
    absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
        MakeChannel("127.0.0.1:" + std::to_string(port_), security);
    ASSERT_TRUE(channel.ok()) << channel.status();
    channel_ = *channel;
    api_ = v1::MigrationService::NewStub(channel_);
  }

  ChildProcess& StartWorker(const std::string& id) {
    workers_.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{HIPFORGE_WORKER_BIN, "--server", "127.0.0.1:" + std::to_string(port_), "--role",
                                 "translate", "--id", id, "--lease-wait-ms", "2000", "--token-file",
                                 worker_token_file_.string(), "--scratch-dir",
                                 (temp_dir_ / ("scratch-" + id)).string()},
        temp_dir_ / (id + ".log")));
    return *workers_.back();
  }

  std::string Pack(const fs::path& root) {
    PackOptions options;
    options.honour_gitignore = false;
    absl::StatusOr<std::string> archive = PackDirectoryToString(root, launcher_, options);
    EXPECT_TRUE(archive.ok()) << archive.status();
    return archive.ok() ? *archive : std::string();
  }

  v1::Job Get(const std::string& id) {
    grpc::ClientContext context;
    v1::GetJobRequest request;
    request.set_job_id(id);
    v1::Job job;
    api_->GetJob(&context, request, &job);
    return job;
  }

  v1::Job WaitFor(const std::string& id, const std::function<bool(const v1::Job&)>& done,
                  std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    v1::Job job;
    while (std::chrono::steady_clock::now() < deadline) {
      job = Get(id);
      if (done(job)) return job;
      std::this_thread::sleep_for(20ms);
    }
    return job;
  }

  int HttpPort() { return WaitForPortFile(temp_dir_ / "port.http", 10s); }

  // Waits until every job of `ids` is final. Slow is not stuck: the wait ends with a failure only when no job has
  // finished for `stall` (a 2-core CI machine running another test beside this one takes minutes for a backlog
  // that a quiet machine clears in one); the failure names each unfinished job with its state and tasks.
  void WaitUntilAllFinal(const std::vector<std::string>& ids, std::chrono::seconds stall) {
    std::set<std::string> open(ids.begin(), ids.end());
    auto last_progress = std::chrono::steady_clock::now();
    while (!open.empty() && std::chrono::steady_clock::now() - last_progress < stall) {
      for (auto it = open.begin(); it != open.end();) {
        if (IsFinal(Get(*it).state())) {
          it = open.erase(it);
          last_progress = std::chrono::steady_clock::now();
        } else {
          ++it;
        }
      }
      if (!open.empty()) std::this_thread::sleep_for(200ms);
    }
    if (open.empty()) return;
    std::string stuck;
    for (const std::string& id : open) {
      const v1::Job job = Get(id);
      stuck += "\n  " + id + " " + v1::JobState_Name(job.state()) + " attempts " + std::to_string(job.attempts());
      for (const std::string& line : LogLinesNaming(id)) stuck += "\n    " + line;
    }
    FAIL() << open.size() << " of " << ids.size() << " job(s) not final and none finished for " << stall.count()
           << " s:" << stuck << "\n"
           << Logs();
  }

  // Each job (id -> .cu files submitted) ends SUCCEEDED with one report listing each .cu file once; counts the
  // jobs whose task ran more than once.
  void ExpectEachSucceededWithOneReport(client::MigrationClient& api, const std::map<std::string, int>& cuda_files,
                                        int* second_attempts) {
    std::vector<std::string> ids;
    for (const auto& [id, cuda] : cuda_files) ids.push_back(id);
    ASSERT_NO_FATAL_FAILURE(WaitUntilAllFinal(ids, 180s));
    for (const auto& [id, cuda] : cuda_files) {
      const v1::Job job = Get(id);
      ASSERT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << id << ": " << job.error() << "\n" << Logs();
      *second_attempts += job.attempts() > 1;
      absl::StatusOr<v1::Report> report = api.GetReport(id);
      ASSERT_TRUE(report.ok()) << id << ": " << report.status();
      const std::multiset<std::string> paths = ReportedPaths(*report);
      EXPECT_TRUE(NoPathTwice(paths)) << id << " reported a file twice";
      EXPECT_EQ(std::count_if(paths.begin(), paths.end(), [](const std::string& p) { return p.ends_with(".cu"); }),
                cuda)
          << id;
      EXPECT_EQ(report->translation().files(), static_cast<int>(paths.size())) << id;
    }
  }

  std::string Logs() {
    std::string logs = server_ ? "--- server\n" + server_->Log() : "";
    for (auto& worker : workers_) logs += "--- worker\n" + worker->Log();
    return logs;
  }

  // The lines of the server's and workers' logs that name `id` (a job's story, ahead of the whole logs, which a
  // CI excerpt cuts).
  std::vector<std::string> LogLinesNaming(const std::string& id) {
    std::vector<std::string> lines;
    std::string all = server_ ? server_->Log() : "";
    for (auto& worker : workers_) all += worker->Log();
    std::istringstream in(all);
    for (std::string line; std::getline(in, line);) {
      if (line.find(id) != std::string::npos) lines.push_back(line);
    }
    return lines;
  }

  fs::path temp_dir_;
  std::string schema_;
  BoostProcessLauncher launcher_;
  std::unique_ptr<ChildProcess> server_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
  int port_ = 0;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::MigrationService::Stub> api_;
  std::string token_;           // team e2e
  fs::path worker_token_file_;  // worker credential of pool e2e (translate)
};

std::map<std::string, std::string> ExtractToMap(const std::string& archive, const fs::path& dir) {
  std::map<std::string, std::string> files;
  absl::StatusOr<ExtractResult> result = SafeExtractBuffer(archive, dir);
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    files[fs::relative(entry.path(), dir).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

TEST_F(EndToEndTest, SubmitTranslateFetchReportThroughRealBinaries) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  StartWorker("w-main");
  const fs::path example = fs::path(HIPFORGE_EXAMPLES_DIR) / "cuda-vector-stats";
  ASSERT_TRUE(fs::exists(example)) << example;
  v1::JobSpec spec = server::testing::TestSpec("vector-stats", "e2e", /*translate_only=*/true);
  auto submitted = SubmitArchive(*api_, spec, Pack(example));
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();

  v1::Job job = WaitFor(
      submitted.job.id(), [](const v1::Job& j) { return IsFinal(j.state()); }, 300s);
  ASSERT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error() << "\n" << Logs();

  std::string tree, patch;
  v1::ArtifactInfo info;
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_TRANSLATED_TREE, &tree, &info).ok());
  EXPECT_EQ(info.format(), v1::COMPRESSION_FORMAT_TAR_ZSTD);
  auto files = ExtractToMap(tree, temp_dir_ / "fetched");
  ASSERT_FALSE(files.empty());
  bool any_hip = false;
  for (const auto& [path, content] : files) {
    EXPECT_EQ(content.find("cudaMalloc("), std::string::npos) << path << " still calls cudaMalloc";
    any_hip |= content.find("hip") != std::string::npos;
  }
  EXPECT_TRUE(any_hip);
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &patch, &info).ok());
  EXPECT_THAT(patch, HasSubstr("+"));
  EXPECT_THAT(patch, HasSubstr("hip"));

  grpc::ClientContext context;
  v1::GetReportRequest request;
  request.set_job_id(job.id());
  v1::Report report;
  ASSERT_TRUE(api_->GetReport(&context, request, &report).ok());
  EXPECT_GT(report.translation().files(), 0);
  EXPECT_GT(report.translation().translated(), 0);
  nlohmann::json json = hipforge::report::testing::WireJson(report.document());
  EXPECT_TRUE(json.contains("translation"));

  // Every worker log line about a task names its worker and job.
  for (auto& worker : workers_) EXPECT_THAT(worker->Log(), HasSubstr("[worker=w-main job=" + job.id()));
}

TEST_F(EndToEndTest, WorkerKilledWhileHoldingALeaseJobCompletesOnAnotherWorker) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  const fs::path repo = temp_dir_ / "large";
  WriteLargeCudaRepo(repo, 150);
  auto submitted = SubmitArchive(*api_, server::testing::TestSpec("sigkill", "e2e"), Pack(repo));
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  const std::string id = submitted.job.id();

  ChildProcess& victim = StartWorker("w-victim");
  v1::Job job = WaitFor(
      id, [](const v1::Job& j) { return j.state() != v1::JOB_STATE_QUEUED; }, 120s);
  ASSERT_EQ(job.state(), v1::JOB_STATE_TRANSLATING) << Logs();
  std::this_thread::sleep_for(500ms);  // well into the download / translation
  victim.Signal(SIGKILL);
  ASSERT_EQ(victim.Wait(10s), 128 + SIGKILL);
  ASSERT_EQ(Get(id).state(), v1::JOB_STATE_TRANSLATING) << "the victim finished before it was killed";

  StartWorker("w-rescuer");
  job = WaitFor(
      id, [](const v1::Job& j) { return IsFinal(j.state()); }, 600s);
  ASSERT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error() << "\n" << Logs();
  EXPECT_EQ(job.attempts(), 2);

  grpc::ClientContext context;
  v1::GetReportRequest request;
  request.set_job_id(id);
  v1::Report report;
  ASSERT_TRUE(api_->GetReport(&context, request, &report).ok());
  const std::multiset<std::string> paths = ReportedPaths(report);
  const std::set<std::string> unique(paths.begin(), paths.end());
  EXPECT_TRUE(NoPathTwice(paths)) << "a file appears twice in the report";
  EXPECT_EQ(std::count_if(unique.begin(), unique.end(), [](const std::string& p) { return p.ends_with(".cu"); }), 150);
  EXPECT_EQ(report.translation().files(), static_cast<int>(paths.size()));
}

TEST_F(EndToEndTest, EmbeddedServerRestartWithQueuedJobsLosesNone) {
  ASSERT_NO_FATAL_FAILURE(StartServer(/*embedded=*/true));
  std::vector<std::string> ids;
  const std::string archive = server::testing::SmallCudaRepoArchive();
  for (int i = 0; i < 3; ++i) {
    auto submitted = SubmitArchive(*api_, server::testing::TestSpec("queued" + std::to_string(i), "e2e"), archive);
    ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
    ids.push_back(submitted.job.id());
  }
  server_->Signal(SIGTERM);
  ASSERT_EQ(server_->Wait(60s), 0) << server_->Log();
  EXPECT_THAT(server_->Log(), HasSubstr("stopped"));

  ASSERT_NO_FATAL_FAILURE(StartServer(/*embedded=*/true));
  for (const std::string& id : ids) EXPECT_EQ(Get(id).state(), v1::JOB_STATE_QUEUED);
  StartWorker("w-after-restart");
  for (const std::string& id : ids) {
    v1::Job job = WaitFor(
        id, [](const v1::Job& j) { return IsFinal(j.state()); }, 300s);
    EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error() << "\n" << Logs();
  }
}

TEST_F(EndToEndTest, LocalWorkersRunTheWholeSystemInOneProcess) {
  ASSERT_NO_FATAL_FAILURE(StartServer(false, {"--local-workers", "1"}));
  auto submitted =
      SubmitArchive(*api_, server::testing::TestSpec("local", "e2e"), server::testing::SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  v1::Job job = WaitFor(
      submitted.job.id(), [](const v1::Job& j) { return IsFinal(j.state()); }, 300s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED) << job.error() << "\n" << Logs();
}

// The embedded cluster of a server started with StartServer(true): its log names where it runs.
fs::path EmbeddedClusterDir(const std::string& server_log, const fs::path& data_dir) {
  constexpr std::string_view kRunningIn = "embedded postgres: running in ";
  const size_t at = server_log.find(kRunningIn);
  if (at == std::string::npos) return data_dir / "pg" / "postgres";
  const size_t begin = at + kRunningIn.size();
  return server_log.substr(begin, server_log.find(" (socket", begin) - begin);
}

// Gone or a zombie (a killed postmaster is reaped by whoever inherited it, maybe later).
bool ProcessGone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] == 'Z';
}

// A client-library submitter for a server whose database goes away: a submit refused UNAVAILABLE is sent again
// with its request id (200 ms later, for up to 90 s), as a script retrying migrate-cli's exit 2 with
// --request-id would; any other error is recorded.
class RetryingSubmitter {
 public:
  struct Submitted {
    std::string id;
    int cuda_files = 0;  // .cu files in the repository submitted
    std::chrono::steady_clock::time_point started, ended;
  };
  explicit RetryingSubmitter(std::unique_ptr<client::MigrationClient> api) : api_(std::move(api)) {}

  void Submit(const fs::path& repo, const std::string& name, int cuda_files) {
    const auto started = std::chrono::steady_clock::now();
    ++uploading_;
    const std::string request_id = client::NewSubmitRequestId();
    absl::StatusOr<v1::Job> job;
    for (;;) {
      job = api_->Submit(repo, server::testing::TestSpec(name, "e2e"), ArchiveCompression::kZstd, nullptr, request_id);
      if (job.ok() || job.status().code() != absl::StatusCode::kUnavailable ||
          std::chrono::steady_clock::now() - started > 90s) {
        break;
      }
      ++unavailable_;
      std::this_thread::sleep_for(200ms);
    }
    --uploading_;
    std::lock_guard lock(mutex_);
    if (!job.ok()) {
      errors_.push_back(name + ": " + job.status().ToString());
      return;
    }
    submitted_.push_back({job->id(), cuda_files, started, std::chrono::steady_clock::now()});
  }
  std::vector<Submitted> submitted() {
    std::lock_guard lock(mutex_);
    return submitted_;
  }
  std::vector<std::string> errors() {
    std::lock_guard lock(mutex_);
    return errors_;
  }
  size_t count() {
    std::lock_guard lock(mutex_);
    return submitted_.size();
  }
  int unavailable() const { return unavailable_; }
  bool uploading() const { return uploading_ > 0; }

 private:
  std::unique_ptr<client::MigrationClient> api_;  // its own, as two CI jobs would have
  std::mutex mutex_;
  std::vector<Submitted> submitted_;
  std::vector<std::string> errors_;
  std::atomic<int> unavailable_{0};
  std::atomic<int> uploading_{0};
};

// What callers saw from the postmaster's SIGKILL until the server answered again.
struct OutageSeen {
  int cli_status_exit = -1;  // `migrate-cli status`: 2 (UNAVAILABLE, docs/cli.md) or 0 (asked after the restart)
  int http_status = 0;       // the dashboard API: 503 (with Retry-After) or 200
  std::map<grpc::StatusCode, int> get_job_codes;
  std::chrono::milliseconds answered_after{0};
};

// Kills the server's embedded postmaster (SIGKILL), then asks about `job_id` through migrate-cli, the dashboard
// API and gRPC until it answers again: UNAVAILABLE (503) meanwhile, never INTERNAL.
OutageSeen KillPostmasterAndProbe(ChildProcess& server, const fs::path& data_dir, int grpc_port, int http_port,
                                  const std::string& token, v1::MigrationService::Stub& api, ProcessLauncher& launcher,
                                  const std::string& job_id) {
  OutageSeen seen;
  const fs::path cluster = EmbeddedClusterDir(server.Log(), data_dir);
  pid_t postmaster = 0;
  std::ifstream(cluster / "postmaster.pid") >> postmaster;
  EXPECT_GT(postmaster, 0) << cluster;
  if (postmaster <= 0) return seen;
  const auto killed_at = std::chrono::steady_clock::now();
  EXPECT_EQ(::kill(postmaster, SIGKILL), 0);
  for (int i = 0; i < 500 && !ProcessGone(postmaster); ++i) std::this_thread::sleep_for(10ms);

  ProcessSpec status_spec;
  status_spec.argv = {HIPFORGE_CLI_BIN, "--server", "127.0.0.1:" + std::to_string(grpc_port), "status", job_id};
  status_spec.environment["MIGRATE_TOKEN"] = token;
  status_spec.timeout = std::chrono::seconds(60);
  absl::StatusOr<ProcessResult> status_run = launcher.Run(status_spec);
  EXPECT_TRUE(status_run.ok()) << status_run.status();
  if (status_run.ok()) seen.cli_status_exit = status_run->exit_code;
  EXPECT_TRUE(seen.cli_status_exit == 2 || seen.cli_status_exit == 0)
      << seen.cli_status_exit << ": " << (status_run.ok() ? status_run->standard_error : "");
  const server::testing::HttpResult http =
      server::testing::HttpGet(http_port, "/api/v1/jobs/" + job_id, {{"authorization", "Bearer " + token}});
  seen.http_status = http.status;
  EXPECT_TRUE(http.status == 503 || http.status == 200) << http.status << ": " << http.body;
  for (int i = 0; i < 300; ++i) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + 10s);
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    v1::Job job;
    const grpc::Status status = api.GetJob(&context, request, &job);
    ++seen.get_job_codes[status.error_code()];
    EXPECT_TRUE(status.ok() || status.error_code() == grpc::StatusCode::UNAVAILABLE)
        << status.error_code() << ": " << status.error_message();
    if (status.ok()) break;
    std::this_thread::sleep_for(100ms);
  }
  seen.answered_after =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed_at);
  return seen;
}

// The sequences of the events a client-library watch delivers until the job ends (from the first: of a finished
// job, its whole stream).
std::vector<int64_t> WatchedSequences(client::MigrationClient& api, const std::string& job_id,
                                      std::chrono::seconds timeout) {
  std::vector<int64_t> sequences;
  absl::StatusOr<v1::Job> job = api.Watch(
      job_id,
      [&](const v1::JobEvent& event) {
        sequences.push_back(event.sequence());
        return true;
      },
      timeout);
  EXPECT_TRUE(job.ok()) << job_id << ": " << job.status();
  return sequences;
}

// issue 27 item 4 and its Done-when ("the same test with the embedded postmaster killed"): one server on its
// embedded PostgreSQL with an in-process worker and a migrate-worker; 58 jobs submitted by two client-library
// clients, a `migrate-cli submit --wait` and two watches following jobs; the postmaster is SIGKILLed once 52
// submissions were accepted (so 50 or more jobs are in flight), during an upload of 6 MiB (translations running,
// jobs queued). The server restarts
// it, calls in between get UNAVAILABLE (never INTERNAL) and are retried (the submitters send a refused submit
// again; the CLI, the watches and the workers ride over the gap by themselves), and every job ends succeeded with
// one report: nothing lost, nothing submitted twice.
TEST_F(EndToEndTest, EmbeddedPostmasterKilledServerRestartsItAndJobsFinish) {
  constexpr int kJobs = 58;
  constexpr size_t kKillAfter = 52;
  const auto test_started = std::chrono::steady_clock::now();
  ASSERT_NO_FATAL_FAILURE(StartServer(/*embedded=*/true, {"--local-workers", "1"}));
  StartWorker("w-ext");
  // One CUDA file for most jobs (the suite's time goes to translating them); jobs 52-57 add 6 MiB of
  // incompressible data (an upload in flight at the kill), every tenth has 20 files (translations in flight).
  const fs::path example = fs::path(HIPFORGE_EXAMPLES_DIR) / "cuda-vector-stats";
  const fs::path small = temp_dir_ / "small";
  server::testing::WriteSmallCudaRepo(small);
  const fs::path heavy = temp_dir_ / "heavy";
  server::testing::WriteSmallCudaRepo(heavy);
  WriteIncompressibleFile(heavy / "blob.bin", 6 << 20);
  const fs::path large = temp_dir_ / "large";
  WriteLargeCudaRepo(large, 20);
  const std::string address = "127.0.0.1:" + std::to_string(port_);
  client::ClientOptions options;
  options.server = address;
  options.security.token = token_;
  std::unique_ptr<client::MigrationClient> api = client::MigrationClient::Connect(options, launcher_);

  ::setenv("MIGRATE_TOKEN", token_.c_str(), 1);  // the child inherits it
  ChildProcess cli({HIPFORGE_CLI_BIN, "--server", address, "submit", example.string(), "--wait", "--translate-only",
                    "--name", "pmkill-cli"},
                   temp_dir_ / "cli.log");
  ::unsetenv("MIGRATE_TOKEN");
  std::vector<std::unique_ptr<RetryingSubmitter>> submitters;
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    submitters.push_back(std::make_unique<RetryingSubmitter>(client::MigrationClient::Connect(options, launcher_)));
    threads.emplace_back([&, t, &submitter = *submitters.back()] {
      for (int i = t; i < kJobs; i += 2) {
        const std::string name = "pmkill" + std::to_string(i);
        if (i % 10 == 9) {
          submitter.Submit(large, name, 20);
        } else {
          submitter.Submit(i >= static_cast<int>(kKillAfter) ? heavy : small, name, 1);
        }
      }
    });
  }
  auto accepted = [&] { return submitters[0]->count() + submitters[1]->count(); };
  for (int i = 0; i < 3000 && accepted() < kKillAfter; ++i) std::this_thread::sleep_for(20ms);
  ASSERT_GE(accepted(), kKillAfter) << Logs();
  for (int i = 0; i < 600 && cli.Log().find("submitted job ") == std::string::npos && cli.Running(); ++i) {
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_THAT(cli.Log(), HasSubstr("submitted job ")) << Logs();
  const std::string cli_log = cli.Log();
  const size_t id_at = cli_log.find("submitted job ") + std::string("submitted job ").size();
  const std::string cli_job = cli_log.substr(id_at, cli_log.find(' ', id_at) - id_at);

  // Two watches over the outage, each recording the sequences it delivers.
  std::vector<std::pair<std::string, std::future<std::vector<int64_t>>>> watches;
  for (const std::string& id : {submitters[0]->submitted().back().id, submitters[1]->submitted().back().id}) {
    watches.emplace_back(id, std::async(std::launch::async, [&api, id] { return WatchedSequences(*api, id, 600s); }));
  }
  v1::ListJobsRequest all;
  all.set_team("e2e");
  all.set_page_size(500);
  absl::StatusOr<v1::ListJobsResponse> at_kill = api->ListJobs(all);
  ASSERT_TRUE(at_kill.ok()) << at_kill.status();
  ASSERT_GT(at_kill->jobs_size(), 0);
  std::map<std::string, int> states_at_kill;
  for (const v1::Job& job : at_kill->jobs()) ++states_at_kill[client::JobStateName(job.state())];

  for (int i = 0; i < 10000 && !submitters[0]->uploading() && !submitters[1]->uploading(); ++i) {
    std::this_thread::sleep_for(1ms);
  }
  const auto killed_at = std::chrono::steady_clock::now();
  const OutageSeen outage = KillPostmasterAndProbe(*server_, temp_dir_ / "data", port_, HttpPort(), token_, *api_,
                                                   launcher_, at_kill->jobs(0).id());
  EXPECT_GE(outage.get_job_codes.count(grpc::StatusCode::UNAVAILABLE), 1u) << "no call saw the outage";
  ASSERT_EQ(outage.get_job_codes.count(grpc::StatusCode::OK), 1u) << "the server did not answer again" << Logs();
  // The line follows pg_ctl's return, which may come after the first answer.
  for (int i = 0; i < 300 && server_->Log().find("embedded postgres restarted") == std::string::npos; ++i) {
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_THAT(server_->Log(), HasSubstr("embedded postgres died; restarting (attempt 1/5)"));
  EXPECT_THAT(server_->Log(), HasSubstr("embedded postgres restarted"));

  for (std::thread& thread : threads) thread.join();
  std::map<std::string, int> cuda_files = {{cli_job, 3}};  // the example: src/{main,reductions,elementwise}.cu
  int uploads_across_kill = 0;
  for (auto& submitter : submitters) {
    for (const std::string& error : submitter->errors()) ADD_FAILURE() << error;
    for (const auto& job : submitter->submitted()) {
      cuda_files[job.id] = job.cuda_files;
      uploads_across_kill += job.started < killed_at && job.ended > killed_at;
    }
  }
  ASSERT_EQ(cuda_files.size(), static_cast<size_t>(kJobs + 1));
  int second_attempts = 0;
  ASSERT_NO_FATAL_FAILURE(ExpectEachSucceededWithOneReport(*api, cuda_files, &second_attempts));
  // Nothing submitted twice: the team has exactly these jobs.
  absl::StatusOr<v1::ListJobsResponse> listed = api->ListJobs(all);
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(listed->jobs_size(), kJobs + 1);
  // Each watch resumed after the last event it delivered: its events are the job's whole stream, once each.
  for (auto& [id, watch] : watches) EXPECT_EQ(watch.get(), WatchedSequences(*api, id, 60s)) << id;
  EXPECT_EQ(cli.Wait(120s), 0) << cli.Log();

  std::map<grpc::StatusCode, int> codes = outage.get_job_codes;
  std::cerr << kJobs + 1 << " jobs, in flight at the kill:";
  for (const auto& [state, count] : states_at_kill) std::cerr << " " << count << " " << state;
  std::cerr << "; answered again after " << outage.answered_after.count() << " ms (GetJob UNAVAILABLE "
            << codes[grpc::StatusCode::UNAVAILABLE] << " times, migrate-cli status exit " << outage.cli_status_exit
            << ", dashboard HTTP " << outage.http_status << "); "
            << submitters[0]->unavailable() + submitters[1]->unavailable()
            << " submit(s) refused UNAVAILABLE and sent again, " << uploads_across_kill
            << " upload(s) spanned the kill, " << second_attempts << " job(s) ran a second attempt; "
            << std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - test_started).count()
            << " s\n";
}

#ifdef HIPFORGE_CLI_BIN
// The user's path: migrate-cli packs, submits, waits, fetches the tree and prints the report.
TEST_F(EndToEndTest, MigrateCliSubmitWaitFetchReport) {
  ASSERT_NO_FATAL_FAILURE(StartServer());
  StartWorker("w-cli");
  const fs::path example = fs::path(HIPFORGE_EXAMPLES_DIR) / "cuda-vector-stats";
  const fs::path out = temp_dir_ / "cli-out";
  const fs::path report = temp_dir_ / "report.json";
  ProcessSpec spec;
  spec.argv = {HIPFORGE_CLI_BIN,   "--server",       "127.0.0.1:" + std::to_string(port_),
               "submit",           example.string(), "--wait",
               "--translate-only", "--out",          out.string(),
               "--report",         "json",           "--report-output",
               report.string()};
  spec.environment["MIGRATE_TOKEN"] = token_;
  spec.timeout = std::chrono::minutes(5);
  absl::StatusOr<ProcessResult> result = launcher_.Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 0) << result->standard_output << result->standard_error << Logs();
  ASSERT_TRUE(fs::exists(out)) << result->standard_error;
  bool any_cu = false;
  for (const auto& entry : fs::recursive_directory_iterator(out)) any_cu |= entry.path().extension() == ".cu";
  EXPECT_TRUE(any_cu);
  std::ifstream in(report);
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(json.is_object()) << "report is not JSON";
  EXPECT_TRUE(json.contains("translation"));
}
#endif

}  // namespace
}  // namespace hipforge::testing
