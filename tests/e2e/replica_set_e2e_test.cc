// Two migrate-servers as a replica set (issue 27 items 3 and its fault test): one external PostgreSQL, --artifact-store
// postgres, each its own data dir. A migrate-worker and migrate-cli given both addresses use the first; it is SIGKILLed
// while the worker translates, `submit --wait` waits and a watch follows the job. Everything moves to the second
// server: the worker's lease survives (one attempt), the CLI exits 0, the watch resumes after the last event it saw.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <regex>
#include <set>
#include <thread>

#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>

#include "client/lib/migration_client.h"
#include "common/grpc_channel.h"
#include "common/process.h"
#include "common/sha256.h"
#include "hipforge/v1/migration_service.grpc.pb.h"
#include "tests/e2e/child_process.h"
#include "tests/e2e/large_cuda_repo.h"
#include "tests/e2e/report_paths.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/store/postgres_test_env.h"
#include "tests/support/token_cli.h"

namespace hipforge::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

class ReplicaSetEndToEndTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hipforge-replicas-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    temp_dir_ = pattern;
    schema_ = server::testing::FreshSchemaName();
    ASSERT_FALSE(server::testing::TestDatabaseUrl().empty()) << "no PostgreSQL for the test";
  }
  void TearDown() override {
    workers_.clear();
    for (auto& [name, server] : servers_) {
      server->Signal(SIGTERM);
      server->Wait(30s);
    }
    servers_.clear();
    std::error_code ignored;
    if (!::testing::Test::HasFailure()) fs::remove_all(temp_dir_, ignored);
  }

  std::vector<std::string> DatabaseArgs() const {
    return {"--database-url", server::testing::TestDatabaseUrl(), "--database-schema", schema_};
  }

  // One server of the set; returns its address.
  std::string StartServer(const std::string& name) {
    const fs::path port_file = temp_dir_ / ("port-" + name);
    std::vector<std::string> argv = LocalServerArgv(HIPFORGE_SERVER_BIN, temp_dir_ / ("data-" + name), port_file);
    argv.insert(argv.end(), {"--artifact-store", "postgres", "--lease-ms", "3000", "--rescue-interval-ms", "200"});
    for (const std::string& arg : DatabaseArgs()) argv.push_back(arg);
    servers_[name] = std::make_unique<ChildProcess>(argv, temp_dir_ / ("server-" + name + ".log"));
    const int port = WaitForPortFile(port_file, 120s);
    EXPECT_GT(port, 0) << "server " << name << " did not start:\n" << servers_[name]->Log();
    return "127.0.0.1:" + std::to_string(port);
  }

  void MakeCredentials() {
    TokenCliResult team = CreateTeamToken(HIPFORGE_SERVER_BIN, DatabaseArgs(), "e2e");
    ASSERT_EQ(team.exit_code, 0) << team.err;
    token_ = team.token;
    TokenCliResult worker = CreateWorkerCredential(HIPFORGE_SERVER_BIN, DatabaseArgs(), "e2e", "translate");
    ASSERT_EQ(worker.exit_code, 0) << worker.err;
    worker_token_file_ = temp_dir_ / "worker.token";
    WriteSecretFile(worker_token_file_, worker.token);
  }

  ChildProcess& StartWorker(const std::string& id, const std::vector<std::string>& server_flags) {
    std::vector<std::string> argv = {HIPFORGE_WORKER_BIN,
                                     "--role",
                                     "translate",
                                     "--id",
                                     id,
                                     "--lease-wait-ms",
                                     "2000",
                                     "--token-file",
                                     worker_token_file_.string(),
                                     "--scratch-dir",
                                     (temp_dir_ / ("scratch-" + id)).string()};
    argv.insert(argv.end(), server_flags.begin(), server_flags.end());
    workers_.push_back(std::make_unique<ChildProcess>(argv, temp_dir_ / (id + ".log")));
    return *workers_.back();
  }

  std::unique_ptr<client::MigrationClient> Client(const std::string& servers) {
    client::ClientOptions options;
    options.server = servers;
    options.security.token = token_;
    return client::MigrationClient::Connect(options, launcher_);
  }

  std::string Logs() {
    std::string logs;
    for (auto& [name, server] : servers_) logs += "--- server " + name + "\n" + server->Log();
    for (auto& worker : workers_) logs += "--- worker\n" + worker->Log();
    return logs;
  }

  fs::path temp_dir_;
  std::string schema_;
  BoostProcessLauncher launcher_;
  std::map<std::string, std::unique_ptr<ChildProcess>> servers_;
  std::vector<std::unique_ptr<ChildProcess>> workers_;
  std::string token_;
  fs::path worker_token_file_;
};

// Every event of the job from the first, as the client library delivers them (after the job ended).
std::vector<int64_t> AllSequences(client::MigrationClient& api, const std::string& job_id) {
  std::vector<int64_t> sequences;
  auto record = [&](const v1::JobEvent& event) {
    sequences.push_back(event.sequence());
    return true;
  };
  absl::StatusOr<v1::Job> job = api.Watch(job_id, record, 60s);
  EXPECT_TRUE(job.ok()) << job.status();
  return sequences;
}

TEST_F(ReplicaSetEndToEndTest, FirstServerKilledMidTaskWorkerCliAndWatchFinishOnTheSecond) {
  const std::string a = StartServer("a");
  const std::string b = StartServer("b");
  ASSERT_FALSE(HasFailure()) << Logs();
  ASSERT_NO_FATAL_FAILURE(MakeCredentials());
  StartWorker("w1", {"--server", a, "--server", b});  // the repeated flag
  const fs::path repo = temp_dir_ / "large";
  WriteLargeCudaRepo(repo, 150);

  ::setenv("MIGRATE_TOKEN", token_.c_str(), 1);  // the child inherits it
  ChildProcess cli({HIPFORGE_CLI_BIN, "--server", a + "," + b, "submit", repo.string(), "--wait", "--translate-only",
                    "--name", "failover-cli"},
                   temp_dir_ / "cli.log");  // the comma list
  ::unsetenv("MIGRATE_TOKEN");
  std::smatch found;
  const std::regex submitted("submitted job ([0-9a-f-]{36})");
  std::string cli_log;
  for (int i = 0; i < 600 && !std::regex_search(cli_log, found, submitted) && cli.Running(); ++i) {
    std::this_thread::sleep_for(100ms);
    cli_log = cli.Log();
  }
  ASSERT_TRUE(std::regex_search(cli_log, found, submitted)) << cli.Log() << Logs();
  const std::string id = found[1];

  // A watch through the client library `watch` uses, recording each event's sequence as it arrives.
  std::unique_ptr<client::MigrationClient> watcher_api = Client(a + "," + b);
  std::mutex seen_mutex;
  std::vector<int64_t> seen;
  std::atomic<bool> files_in_progress{false};
  auto watched = std::async(std::launch::async, [&] {
    return watcher_api->Watch(
        id,
        [&](const v1::JobEvent& event) {
          std::lock_guard lock(seen_mutex);
          seen.push_back(event.sequence());
          if (event.has_file_progress()) files_in_progress = true;
          return true;
        },
        600s);
  });

  // Kill A once the worker translates the job through it (its first file progress came).
  for (int i = 0; i < 2400 && !files_in_progress; ++i) std::this_thread::sleep_for(50ms);
  std::unique_ptr<client::MigrationClient> api_b = Client(b);
  ASSERT_THAT(servers_["a"]->Log(), HasSubstr("[worker=w1] leased translate task")) << Logs();
  size_t seen_before_kill = 0;
  {
    std::lock_guard lock(seen_mutex);
    seen_before_kill = seen.size();
  }
  servers_["a"]->Signal(SIGKILL);
  ASSERT_EQ(servers_["a"]->Wait(10s), 128 + SIGKILL);
  absl::StatusOr<v1::Job> at_kill = api_b->GetJob(id);
  ASSERT_TRUE(at_kill.ok()) << at_kill.status();
  ASSERT_EQ(at_kill->state(), v1::JOB_STATE_TRANSLATING) << "the job ended before A was killed";
  EXPECT_GT(seen_before_kill, 0u) << "the watch saw nothing before the kill";

  // The CLI rides over it: exit 0, the job succeeded, with the worker's first (and only) attempt.
  EXPECT_EQ(cli.Wait(300s), 0) << cli.Log() << Logs();
  absl::StatusOr<v1::Job> job = api_b->GetJob(id);
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(job->state(), v1::JOB_STATE_SUCCEEDED) << job->error() << "\n" << Logs();
  EXPECT_EQ(job->attempts(), 1) << "the lease did not survive A: the task ran again\n" << Logs();
  EXPECT_THAT(servers_["b"]->Log(), HasSubstr("[worker=w1] completion of task"))
      << "the worker did not complete through B";

  // One report: each of the 150 files once.
  absl::StatusOr<v1::Report> report = api_b->GetReport(id);
  ASSERT_TRUE(report.ok()) << report.status();
  const std::multiset<std::string> paths = ReportedPaths(*report);
  EXPECT_TRUE(NoPathTwice(paths)) << "a file reported twice";
  EXPECT_EQ(std::count_if(paths.begin(), paths.end(), [](const std::string& p) { return p.ends_with(".cu"); }), 150);

  // The watch resumed on B: every event once, in order, none missing -- exactly what B streams from the start.
  absl::StatusOr<v1::Job> watch_end = watched.get();
  ASSERT_TRUE(watch_end.ok()) << watch_end.status();
  EXPECT_EQ(watch_end->state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_GT(seen.size(), seen_before_kill) << "nothing seen after the kill";
  EXPECT_EQ(seen, AllSequences(*api_b, id));

  // A fresh CLI with the dead server first in its list fetches the tree and patch from B (sha256 checked).
  ProcessSpec fetch;
  fetch.argv = {HIPFORGE_CLI_BIN,
                "--server",
                a,
                "--server",
                b,
                "fetch",
                id,
                "--out",
                (temp_dir_ / "out").string(),
                "--patch",
                (temp_dir_ / "out.patch").string()};
  fetch.environment["MIGRATE_TOKEN"] = token_;
  fetch.timeout = 120s;
  absl::StatusOr<ProcessResult> fetched = launcher_.Run(fetch);
  ASSERT_TRUE(fetched.ok()) << fetched.status();
  EXPECT_EQ(fetched->exit_code, 0) << fetched->standard_error;
  EXPECT_TRUE(fs::exists(temp_dir_ / "out" / "src" / "k0.cu") || fs::exists(temp_dir_ / "out" / "src" / "k0.hip"))
      << fetched->standard_error;
  EXPECT_GT(fs::file_size(temp_dir_ / "out.patch"), 0u);
}

// Issue 27's fault test: 50 jobs submitted through both servers by clients listing both, a worker on each, watches
// following some; server A SIGKILLed halfway through the submissions (an upload in flight), with translations and
// watches in flight. Every job ends succeeded with one report, every tree and patch comes from B with its sha256,
// no client call fails, nothing is lost or submitted twice.
TEST_F(ReplicaSetEndToEndTest, FiftyJobsThroughBothServersOutliveTheFirstServersDeath) {
  constexpr int kJobs = 50;
  constexpr int kKillAfter = 25;
  const std::string a = StartServer("a");
  const std::string b = StartServer("b");
  ASSERT_FALSE(HasFailure()) << Logs();
  ASSERT_NO_FATAL_FAILURE(MakeCredentials());
  StartWorker("wa", {"--server", a + "," + b});
  StartWorker("wb", {"--server", b + "," + a});
  // Small repositories; every fifth a large one (150 files) so translations are in flight, and jobs 20-29 carry
  // 6 MiB of incompressible data so the upload around the kill takes a while.
  const fs::path small = temp_dir_ / "small";
  server::testing::WriteSmallCudaRepo(small);
  const fs::path large = temp_dir_ / "large";
  WriteLargeCudaRepo(large, 150);
  const fs::path heavy = temp_dir_ / "heavy";
  server::testing::WriteSmallCudaRepo(heavy);
  WriteIncompressibleFile(heavy / "blob.bin", 6 << 20);
  std::unique_ptr<client::MigrationClient> via_a = Client(a + "," + b);
  std::unique_ptr<client::MigrationClient> via_b = Client(b + "," + a);

  struct Submitted {
    std::string id;
    std::chrono::steady_clock::time_point started, ended;
  };
  std::vector<Submitted> jobs;
  jobs.reserve(kJobs);  // read by this thread while the submitter appends: never reallocated
  std::vector<std::string> errors;
  std::atomic<int> submitted{0};
  std::thread submitter([&] {
    for (int i = 0; i < kJobs; ++i) {
      const fs::path& repo = i % 5 == 4 ? large : (i >= 20 && i < 30 ? heavy : small);
      client::MigrationClient& api = i % 2 == 0 ? *via_a : *via_b;
      const auto started = std::chrono::steady_clock::now();
      absl::StatusOr<v1::Job> job = api.Submit(repo, server::testing::TestSpec("fifty-" + std::to_string(i), "e2e"),
                                               ArchiveCompression::kZstd, nullptr);
      if (!job.ok()) {
        errors.push_back("submit " + std::to_string(i) + ": " + job.status().ToString());
        continue;
      }
      jobs.push_back({job->id(), started, std::chrono::steady_clock::now()});
      ++submitted;
    }
  });
  while (submitted < kKillAfter) std::this_thread::sleep_for(10ms);
  // Watches through A (the first address) on three jobs already in the queue.
  std::vector<std::pair<std::string, std::future<std::vector<int64_t>>>> watches;
  for (int i = kKillAfter - 3; i < kKillAfter; ++i) {
    const std::string id = jobs[i].id;
    watches.emplace_back(id, std::async(std::launch::async, [this, a, b, id] {
                           std::vector<int64_t> seen;
                           auto record = [&](const v1::JobEvent& event) {
                             seen.push_back(event.sequence());
                             return true;
                           };
                           absl::StatusOr<v1::Job> end = Client(a + "," + b)->Watch(id, record, 600s);
                           EXPECT_TRUE(end.ok()) << id << ": " << end.status();
                           return seen;
                         }));
  }
  std::this_thread::sleep_for(300ms);
  std::unique_ptr<client::MigrationClient> api_b = Client(b);
  v1::ListJobsRequest translating;
  translating.set_state(v1::JOB_STATE_TRANSLATING);
  absl::StatusOr<v1::ListJobsResponse> in_flight = api_b->ListJobs(translating);
  ASSERT_TRUE(in_flight.ok()) << in_flight.status();
  const auto killed_at = std::chrono::steady_clock::now();
  servers_["a"]->Signal(SIGKILL);
  ASSERT_EQ(servers_["a"]->Wait(10s), 128 + SIGKILL);
  submitter.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(jobs.size(), static_cast<size_t>(kJobs));
  int uploads_across_kill = 0;
  for (const Submitted& job : jobs) uploads_across_kill += job.started < killed_at && job.ended > killed_at;

  int retried = 0;  // jobs whose task ran twice (a lease that did not survive)
  for (const Submitted& job : jobs) {
    absl::StatusOr<v1::Job> state = api_b->GetJob(job.id);
    for (int i = 0; i < 3000 && state.ok() && !client::IsFinalState(state->state()); ++i) {
      std::this_thread::sleep_for(100ms);
      state = api_b->GetJob(job.id);
    }
    ASSERT_TRUE(state.ok()) << state.status();
    ASSERT_EQ(state->state(), v1::JOB_STATE_SUCCEEDED) << job.id << ": " << state->error() << "\n" << Logs();
    retried += state->attempts() > 1;
    absl::StatusOr<v1::Report> report = api_b->GetReport(job.id);
    ASSERT_TRUE(report.ok()) << report.status();
    EXPECT_TRUE(NoPathTwice(ReportedPaths(*report))) << job.id << " reported a file twice";
    for (v1::ArtifactKind kind : {v1::ARTIFACT_KIND_TRANSLATED_TREE, v1::ARTIFACT_KIND_PATCH}) {
      std::string bytes;
      v1::ArtifactInfo info;
      auto sink = [&](std::string_view chunk) {
        bytes.append(chunk);
        return absl::OkStatus();
      };
      absl::Status fetched =
          api_b->FetchArtifact(job.id, kind, sink, [&](const v1::ArtifactInfo& header) { info = header; });
      ASSERT_TRUE(fetched.ok()) << job.id << ": " << fetched;
      EXPECT_EQ(Sha256Hex(bytes), info.sha256()) << job.id << " " << v1::ArtifactKind_Name(kind);
    }
  }
  // Nothing submitted twice: the team has exactly the 50 jobs.
  v1::ListJobsRequest list;
  list.set_team("e2e");
  list.set_page_size(500);
  absl::StatusOr<v1::ListJobsResponse> listed = api_b->ListJobs(list);
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(listed->jobs_size(), kJobs);
  // Each watch resumed on B: its events are B's whole stream, once each.
  for (auto& [id, watch] : watches) EXPECT_EQ(watch.get(), AllSequences(*api_b, id)) << id;
  std::cerr << "50 jobs: " << in_flight->jobs_size() << " translating when A was killed, " << uploads_across_kill
            << " upload(s) spanned the kill, " << retried << " job(s) needed a second attempt\n";
}

}  // namespace
}  // namespace hipforge::testing
