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
#include <mutex>
#include <random>
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hipforge queue dispatch benchmark"};
  int workers = 4;
  int tasks = 2000;
  int wake_samples = 20;
  std::string database_url;
  app.add_option("--workers", workers, "worker threads leasing and completing")->check(CLI::Range(1, 64));
  app.add_option("--tasks", tasks, "tasks to dispatch")->check(CLI::Range(1, 1000000));
  app.add_option("--wake-samples", wake_samples, "NOTIFY wake-up latency samples");
  app.add_option("--database-url", database_url, "PostgreSQL URL (default: embedded cluster)");
  CLI11_PARSE(app, argc, argv);

  hipforge::BoostProcessLauncher launcher;
  std::unique_ptr<hipforge::server::EmbeddedPostgres> embedded;
  std::filesystem::path temp_dir;
  if (database_url.empty()) {
    if (const char* env = std::getenv("HIPFORGE_TEST_DATABASE_URL"); env != nullptr) database_url = env;
  }
  if (database_url.empty()) {
    char pattern[] = "/tmp/hipforge-queue-bench-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) return 1;
    temp_dir = pattern;
    hipforge::server::EmbeddedPostgresOptions options;
    options.data_dir = temp_dir;
    options.durable = false;  // like the tests; see the note printed below
    auto server = hipforge::server::EmbeddedPostgres::Start(launcher, options);
    if (!server.ok()) {
      std::fprintf(stderr, "cannot start embedded PostgreSQL: %s\n", std::string(server.status().message()).c_str());
      return 1;
    }
    embedded = std::move(*server);
    database_url = embedded->ConnectionString();
    std::printf("database: embedded PostgreSQL (fsync off)\n");
  } else {
    std::printf("database: %s\n", database_url.c_str());
  }

  const std::string schema = "bench_" + hipforge::Sha256Hex(std::to_string(std::random_device{}())).substr(0, 12);
  hipforge::SystemClock clock;
  hipforge::server::PostgresStoreOptions options;
  options.database_url = database_url;
  options.schema = schema;
  options.pool_size = workers + 1;
  auto opened = hipforge::server::OpenPostgresJobStore(options, clock);
  if (!opened.ok()) {
    std::fprintf(stderr, "cannot open store: %s\n", std::string(opened.status().message()).c_str());
    return 1;
  }
  std::unique_ptr<JobStore> store = std::move(*opened);

  // Enqueue: each job carries one translate task (no validation), created in its own transaction.
  const auto enqueue_start = Clock::now();
  for (int i = 0; i < tasks; ++i) {
    hipforge::server::JobSpec spec;
    spec.name = "bench-" + std::to_string(i);
    spec.validate = false;
    const std::string seed = spec.name;
    auto job = store->CreateJob(spec, {"input", hipforge::Sha256Hex(seed), 1, "application/x-tar"});
    if (!job.ok()) {
      std::fprintf(stderr, "enqueue failed: %s\n", std::string(job.status().message()).c_str());
      return 1;
    }
  }
  const double enqueue_ms = Millis(Clock::now() - enqueue_start);

  // Dispatch: workers lease and complete until the queue is empty.
  std::atomic<int> completed{0};
  std::atomic<int> errors{0};
  std::mutex latency_mutex;
  std::vector<double> lease_ms, complete_ms;
  const auto dispatch_start = Clock::now();
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      std::vector<double> my_lease, my_complete;
      const hipforge::server::LeaseRequest request{"bench-worker-" + std::to_string(w),
                                                   {hipforge::server::TaskKind::kTranslate},
                                                   {},
                                                   std::chrono::seconds(60)};
      for (;;) {
        const auto t0 = Clock::now();
        auto leased = store->LeaseTask(request);
        const auto t1 = Clock::now();
        if (!leased.ok()) {
          ++errors;
          break;
        }
        if (!leased->has_value()) break;
        hipforge::server::TaskCompletion completion;
        completion.lease = (*leased)->lease;
        completion.result_json = R"({"files":1})";
        auto outcome = store->CompleteTask(completion);
        const auto t2 = Clock::now();
        if (!outcome.ok() || *outcome != hipforge::server::CompletionOutcome::kApplied) {
          ++errors;
          continue;
        }
        ++completed;
        my_lease.push_back(Millis(t1 - t0));
        my_complete.push_back(Millis(t2 - t1));
      }
      std::lock_guard lock(latency_mutex);
      lease_ms.insert(lease_ms.end(), my_lease.begin(), my_lease.end());
      complete_ms.insert(complete_ms.end(), my_complete.begin(), my_complete.end());
    });
  }
  for (auto& thread : threads) thread.join();
  const double dispatch_ms = Millis(Clock::now() - dispatch_start);

  // Wake-up latency: an idle worker blocked in WaitForWork, woken by the enqueue's NOTIFY.
  std::vector<double> wake_ms;
  for (int i = 0; i < wake_samples; ++i) {
    std::atomic<bool> waiting{false};
    Clock::time_point woke;
    std::thread waiter([&] {
      waiting = true;
      if (store->WaitForWork(std::chrono::seconds(5))) woke = Clock::now();
    });
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    hipforge::server::JobSpec spec;
    spec.name = "wake-" + std::to_string(i);
    spec.validate = false;
    const auto before = Clock::now();
    if (!store->CreateJob(spec, {"input", hipforge::Sha256Hex(spec.name), 1, "application/x-tar"}).ok()) ++errors;
    waiter.join();
    if (woke != Clock::time_point()) wake_ms.push_back(Millis(woke - before));
  }

  std::printf("workers: %d, tasks: %d, errors: %d\n", workers, tasks, errors.load());
  std::printf("enqueue:  %.0f jobs/s (%.0f ms for %d CreateJob transactions, sequential)\n",
              tasks / (enqueue_ms / 1000.0), enqueue_ms, tasks);
  std::printf("dispatch: %.0f tasks/s (%d leased+completed in %.0f ms)\n", completed / (dispatch_ms / 1000.0),
              completed.load(), dispatch_ms);
  std::printf("lease latency ms:    p50 %.2f  p99 %.2f\n", Percentile(lease_ms, 0.5), Percentile(lease_ms, 0.99));
  std::printf("complete latency ms: p50 %.2f  p99 %.2f\n", Percentile(complete_ms, 0.5),
              Percentile(complete_ms, 0.99));
  std::printf("NOTIFY wake-up ms (CreateJob start -> waiter woken, %zu samples): p50 %.2f  max %.2f\n",
              wake_ms.size(), Percentile(wake_ms, 0.5), Percentile(wake_ms, 1.0));

  store.reset();
  try {
    pqxx::connection connection(database_url);
    pqxx::work tx(connection);
    tx.exec("SET LOCAL client_min_messages TO warning");
    tx.exec("DROP SCHEMA " + tx.quote_name(schema) + " CASCADE");
    tx.commit();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cleanup: %s\n", error.what());
  }
  embedded.reset();
  if (!temp_dir.empty()) std::filesystem::remove_all(temp_dir);
  return errors.load() == 0 && completed.load() == tasks ? 0 : 1;
}
