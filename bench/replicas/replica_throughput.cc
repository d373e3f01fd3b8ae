// Benchmark (not a test): submit -> report throughput and latency with one migrate-server vs two on one PostgreSQL
// (issue 27). Same total of translate workers and clients in both runs; with two servers each worker and client
// lists both, starting at a different one. A job's latency is from the start of its upload (migrate-cli's Submit,
// from the directory) to its report being read (Watch to a final state, then GetReport).
//
//   bench_replica_throughput [--jobs N] [--clients C] [--workers W] [--repo DIR]
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <random>
#include <thread>

#include <CLI/CLI.hpp>

#include "client/lib/migration_client.h"
#include "common/process.h"
#include "common/sha256.h"
#include "server/store/embedded_postgres.h"
#include "tests/e2e/child_process.h"
#include "tests/support/token_cli.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using hipforge::testing::ChildProcess;

namespace {

struct Setup {
  int servers = 1;
  int jobs = 40;
  int clients = 4;
  int workers = 2;
  fs::path repo;
  std::string database_url;
  fs::path temp;
};

struct Result {
  int succeeded = 0;
  double seconds = 0;
  std::vector<double> latencies_ms;
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * (values.size() - 1) + 0.5))];
}

// "a,b,c" starting at `first`.
std::string Rotated(const std::vector<std::string>& addresses, size_t first) {
  std::string list;
  for (size_t i = 0; i < addresses.size(); ++i) list += (i ? "," : "") + addresses[(first + i) % addresses.size()];
  return list;
}

// Starts the servers and workers on a fresh schema; runs the clients; stops everything.
absl::StatusOr<Result> Measure(const Setup& setup) {
  const std::string schema = "bench_" + hipforge::Sha256Hex(std::to_string(std::random_device{}())).substr(0, 12);
  const fs::path dir = setup.temp / ("servers-" + std::to_string(setup.servers));
  const std::vector<std::string> database = {"--database-url", setup.database_url, "--database-schema", schema};
  std::vector<std::unique_ptr<ChildProcess>> processes;
  std::vector<std::string> addresses;
  for (int s = 0; s < setup.servers; ++s) {
    const fs::path port_file = dir / ("port-" + std::to_string(s));
    std::vector<std::string> argv =
        hipforge::testing::LocalServerArgv(HIPFORGE_SERVER_BIN, dir / ("data-" + std::to_string(s)), port_file);
    argv.insert(argv.end(), {"--artifact-store", "postgres", "--log-level", "warn"});
    argv.insert(argv.end(), database.begin(), database.end());
    fs::create_directories(dir);
    processes.push_back(std::make_unique<ChildProcess>(argv, dir / ("server-" + std::to_string(s) + ".log")));
    const int port = hipforge::testing::WaitForPortFile(port_file, std::chrono::seconds(120));
    if (port == 0) return absl::InternalError("server did not start:\n" + processes.back()->Log());
    addresses.push_back("127.0.0.1:" + std::to_string(port));
  }
  const auto team = hipforge::testing::CreateTeamToken(HIPFORGE_SERVER_BIN, database, "bench");
  const auto credential =
      hipforge::testing::CreateWorkerCredential(HIPFORGE_SERVER_BIN, database, "bench", "translate");
  if (team.exit_code != 0 || credential.exit_code != 0) return absl::InternalError(team.err + credential.err);
  hipforge::testing::WriteSecretFile(dir / "worker.token", credential.token);
  for (int w = 0; w < setup.workers; ++w) {
    const std::string id = "bench-" + std::to_string(w);
    processes.push_back(std::make_unique<ChildProcess>(
        std::vector<std::string>{HIPFORGE_WORKER_BIN, "--server", Rotated(addresses, w), "--role", "translate", "--id",
                                 id, "--log-level", "warn", "--token-file", (dir / "worker.token").string(),
                                 "--scratch-dir", (dir / ("scratch-" + id)).string()},
        dir / (id + ".log")));
  }

  hipforge::BoostProcessLauncher launcher;
  Result result;
  std::mutex mutex;
  std::atomic<int> next{0};
  const auto start = Clock::now();
  std::vector<std::thread> clients;
  for (int c = 0; c < setup.clients; ++c) {
    clients.emplace_back([&, c] {
      hipforge::client::ClientOptions options;
      options.server = Rotated(addresses, c);
      options.security.token = team.token;
      auto api = hipforge::client::MigrationClient::Connect(options, launcher);
      for (int i = next++; i < setup.jobs; i = next++) {
        hipforge::v1::JobSpec spec;
        spec.set_name("bench-" + std::to_string(i));
        spec.mutable_options()->set_translate_only(true);
        const auto submitted_at = Clock::now();
        auto job = api->Submit(setup.repo, spec, hipforge::ArchiveCompression::kZstd, nullptr);
        if (!job.ok()) continue;
        auto end = api->Watch(job->id(), nullptr, std::chrono::minutes(30));
        if (!end.ok() || end->state() != hipforge::v1::JOB_STATE_SUCCEEDED || !api->GetReport(job->id()).ok()) continue;
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - submitted_at).count();
        std::lock_guard lock(mutex);
        ++result.succeeded;
        result.latencies_ms.push_back(ms);
      }
    });
  }
  for (auto& client : clients) client.join();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (auto& process : processes) process->Signal(SIGTERM);
  for (auto& process : processes) process->Wait(std::chrono::seconds(30));
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"submit -> report throughput, one server vs two"};
  Setup setup;
  std::string repo = std::string(HIPFORGE_EXAMPLES_DIR) + "/cuda-vector-stats";
  app.add_option("--jobs", setup.jobs, "jobs per run");
  app.add_option("--clients", setup.clients, "client threads submitting and waiting");
  app.add_option("--workers", setup.workers, "translate workers in all");
  app.add_option("--repo", repo, "repository submitted by every job");
  CLI11_PARSE(app, argc, argv);
  setup.repo = repo;

  char pattern[] = "/tmp/hipforge-bench-replicas-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  setup.temp = pattern;
  hipforge::BoostProcessLauncher launcher;
  hipforge::server::EmbeddedPostgresOptions pg;
  pg.data_dir = setup.temp / "pg";
  auto postgres = hipforge::server::EmbeddedPostgres::Start(launcher, pg);
  if (!postgres.ok()) {
    std::fprintf(stderr, "cannot start PostgreSQL: %s\n", std::string(postgres.status().message()).c_str());
    return 1;
  }
  setup.database_url = (*postgres)->ConnectionString();
  std::printf("%d jobs of %s, %d clients, %d translate workers, PostgreSQL (fsync on), artifacts in it\n", setup.jobs,
              fs::path(repo).filename().c_str(), setup.clients, setup.workers);
  for (int servers : {1, 2}) {
    setup.servers = servers;
    absl::StatusOr<Result> result = Measure(setup);
    if (!result.ok()) {
      std::fprintf(stderr, "%s\n", std::string(result.status().message()).c_str());
      return 1;
    }
    std::printf("%d server(s): %d/%d succeeded in %.1f s = %.1f jobs/min; latency p50 %.0f ms, p95 %.0f ms\n", servers,
                result->succeeded, setup.jobs, result->seconds, 60.0 * result->succeeded / result->seconds,
                Percentile(result->latencies_ms, 0.5), Percentile(result->latencies_ms, 0.95));
    std::fflush(stdout);
  }
  std::error_code ignored;
  postgres->reset();
  fs::remove_all(setup.temp, ignored);
  return 0;
}
