// Queue dispatch throughput: N worker threads lease and complete M tasks through PostgresJobStore
// (each lease is the real FOR UPDATE SKIP LOCKED statement, each completion the real state-machine
// transaction). Also reports enqueue rate and LISTEN/NOTIFY wake-up latency.
//
//   queue_bench [--workers 4] [--tasks 2000] [--database-url URL]
// Without a URL (or HIPFORGE_TEST_DATABASE_URL) it starts an embedded PostgreSQL in a temp dir.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <pqxx/pqxx>

#include "common/clock.h"
#include "common/process.h"
#include "common/sha256.h"
#include "server/store/embedded_postgres.h"
#include "server/store/postgres_job_store.h"

namespace {

using hipforge::server::JobStore;
using Clock = std::chrono::steady_clock;

double Millis(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())))];
}

struct Options {
  int workers = 4;
  int tasks = 2000;
  int wake_samples = 20;
  std::string database_url;
};

// The database the bench runs on: the given URL, HIPFORGE_TEST_DATABASE_URL, or an embedded cluster in a temp dir.
struct Database {
  std::string url;
  std::unique_ptr<hipforge::server::EmbeddedPostgres> embedded;
  std::filesystem::path temp_dir;
};

bool OpenDatabase(hipforge::ProcessLauncher& launcher, std::string url, Database& database) {
  if (url.empty()) {
    if (const char* env = std::getenv("HIPFORGE_TEST_DATABASE_URL"); env != nullptr) url = env;
  }
  if (!url.empty()) {
    database.url = url;
    std::printf("database: %s\n", url.c_str());
    return true;
  }
  char pattern[] = "/tmp/hipforge-queue-bench-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return false;
  database.temp_dir = pattern;
  hipforge::server::EmbeddedPostgresOptions options;
  options.data_dir = database.temp_dir;
  options.durable = false;  // like the tests; see the note printed below
  auto server = hipforge::server::EmbeddedPostgres::Start(launcher, options);
  if (!server.ok()) {
    std::fprintf(stderr, "cannot start embedded PostgreSQL: %s\n", std::string(server.status().message()).c_str());
    return false;
  }
  database.embedded = std::move(*server);
  database.url = database.embedded->ConnectionString();
  std::printf("database: embedded PostgreSQL (fsync off)\n");
  return true;
}

// Enqueue: each job carries one translate task (no validation), created in its own transaction. Returns the
// milliseconds it took, or a negative number on a failure.
double Enqueue(JobStore& store, int tasks) {
  const auto start = Clock::now();
  for (int i = 0; i < tasks; ++i) {
    hipforge::server::JobSpec spec;
    spec.name = "bench-" + std::to_string(i);
    spec.validate = false;
    const std::string seed = spec.name;
    auto job = store.CreateJob(spec, {"input", hipforge::Sha256Hex(seed), 1, "application/x-tar"});
    if (!job.ok()) {
      std::fprintf(stderr, "enqueue failed: %s\n", std::string(job.status().message()).c_str());
      return -1;
    }
  }
  return Millis(Clock::now() - start);
}

struct DispatchResult {
  std::atomic<int> completed{0};
  std::atomic<int> errors{0};
  std::vector<double> lease_ms, complete_ms;
  double elapsed_ms = 0;
};

// One worker: leases and completes until the queue is empty.
void DispatchLoop(JobStore& store, int w, DispatchResult& result, std::mutex& latency_mutex) {
  std::vector<double> my_lease, my_complete;
  const hipforge::server::LeaseRequest request{
      "bench-worker-" + std::to_string(w), {hipforge::server::TaskKind::kTranslate}, {}, std::chrono::seconds(60)};
  for (;;) {
    const auto t0 = Clock::now();
    auto leased = store.LeaseTask(request);
    const auto t1 = Clock::now();
    if (!leased.ok()) {
      ++result.errors;
      break;
    }
    if (!leased->has_value()) break;
    hipforge::server::TaskCompletion completion;
    completion.lease = (*leased)->lease;
    completion.result_json = R"({"files":1})";
    auto outcome = store.CompleteTask(completion);
    const auto t2 = Clock::now();
    if (!outcome.ok() || *outcome != hipforge::server::CompletionOutcome::kApplied) {
      ++result.errors;
      continue;
    }
    ++result.completed;
    my_lease.push_back(Millis(t1 - t0));
    my_complete.push_back(Millis(t2 - t1));
  }
  std::lock_guard lock(latency_mutex);
  result.lease_ms.insert(result.lease_ms.end(), my_lease.begin(), my_lease.end());
  result.complete_ms.insert(result.complete_ms.end(), my_complete.begin(), my_complete.end());
}

// Dispatch: `workers` threads lease and complete until the queue is empty.
void Dispatch(JobStore& store, int workers, DispatchResult& result) {
  std::mutex latency_mutex;
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] { DispatchLoop(store, w, result, latency_mutex); });
  }
  for (auto& thread : threads) thread.join();
  result.elapsed_ms = Millis(Clock::now() - start);
}

// Wake-up latency: an idle worker blocked in WaitForWork, woken by the enqueue's NOTIFY.
std::vector<double> WakeUpLatencies(JobStore& store, int samples, std::atomic<int>& errors) {
  std::vector<double> wake_ms;
  for (int i = 0; i < samples; ++i) {
    std::atomic<bool> waiting{false};
    Clock::time_point woke;
    std::thread waiter([&] {
      waiting = true;
      if (store.WaitForWork(std::chrono::seconds(5))) woke = Clock::now();
    });
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hipforge::server::JobSpec spec;
    spec.name = "wake-" + std::to_string(i);
    spec.validate = false;
    const auto before = Clock::now();
    if (!store.CreateJob(spec, {"input", hipforge::Sha256Hex(spec.name), 1, "application/x-tar"}).ok()) ++errors;
    waiter.join();
    if (woke != Clock::time_point()) wake_ms.push_back(Millis(woke - before));
  }
  return wake_ms;
}

void PrintResults(const Options& options, double enqueue_ms, const DispatchResult& dispatch,
                  const std::vector<double>& wake_ms) {
  std::printf("workers: %d, tasks: %d, errors: %d\n", options.workers, options.tasks, dispatch.errors.load());
  std::printf("enqueue:  %.0f jobs/s (%.0f ms for %d CreateJob transactions, sequential)\n",
              options.tasks / (enqueue_ms / 1000.0), enqueue_ms, options.tasks);
  std::printf("dispatch: %.0f tasks/s (%d leased+completed in %.0f ms)\n",
              dispatch.completed / (dispatch.elapsed_ms / 1000.0), dispatch.completed.load(), dispatch.elapsed_ms);
  std::printf("lease latency ms:    p50 %.2f  p99 %.2f\n", Percentile(dispatch.lease_ms, 0.5),
              Percentile(dispatch.lease_ms, 0.99));
  std::printf("complete latency ms: p50 %.2f  p99 %.2f\n", Percentile(dispatch.complete_ms, 0.5),
              Percentile(dispatch.complete_ms, 0.99));
  std::printf("NOTIFY wake-up ms (CreateJob start -> waiter woken, %zu samples): p50 %.2f  max %.2f\n", wake_ms.size(),
              Percentile(wake_ms, 0.5), Percentile(wake_ms, 1.0));
}

// The bench's schema goes; the embedded cluster (if any) with its temp dir.
void CleanUp(Database& database, const std::string& schema) {
  try {
    pqxx::connection connection(database.url);
    pqxx::work tx(connection);
    tx.exec("SET LOCAL client_min_messages TO warning");
    tx.exec("DROP SCHEMA " + tx.quote_name(schema) + " CASCADE");
    tx.commit();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cleanup: %s\n", error.what());
  }
  database.embedded.reset();
  if (!database.temp_dir.empty()) std::filesystem::remove_all(database.temp_dir);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hipforge queue dispatch benchmark"};
  Options options;
  app.add_option("--workers", options.workers, "worker threads leasing and completing")->check(CLI::Range(1, 64));
  app.add_option("--tasks", options.tasks, "tasks to dispatch")->check(CLI::Range(1, 1000000));
  app.add_option("--wake-samples", options.wake_samples, "NOTIFY wake-up latency samples");
  app.add_option("--database-url", options.database_url, "PostgreSQL URL (default: embedded cluster)");
  CLI11_PARSE(app, argc, argv);

  hipforge::BoostProcessLauncher launcher;
  Database database;
  if (!OpenDatabase(launcher, options.database_url, database)) return 1;
  const std::string schema = "bench_" + hipforge::Sha256Hex(std::to_string(std::random_device{}())).substr(0, 12);
  hipforge::SystemClock clock;
  hipforge::server::PostgresStoreOptions store_options;
  store_options.database_url = database.url;
  store_options.schema = schema;
  store_options.pool_size = options.workers + 1;
  auto opened = hipforge::server::OpenPostgresJobStore(store_options, clock);
  if (!opened.ok()) {
    std::fprintf(stderr, "cannot open store: %s\n", std::string(opened.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<JobStore> store = std::move(*opened);

  const double enqueue_ms = Enqueue(*store, options.tasks);
  if (enqueue_ms < 0) return 1;
  DispatchResult dispatch;
  Dispatch(*store, options.workers, dispatch);
  const std::vector<double> wake_ms = WakeUpLatencies(*store, options.wake_samples, dispatch.errors);
  PrintResults(options, enqueue_ms, dispatch, wake_ms);

  store.reset();
  CleanUp(database, schema);
  return dispatch.errors.load() == 0 && dispatch.completed.load() == options.tasks ? 0 : 1;
}
