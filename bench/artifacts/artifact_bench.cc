// Artifact store throughput: one artifact of --mib MiB written in --append-kib appends (as an upload or a worker's
// completion streams it), then read back in --read-kib pieces (as FetchArtifact/DownloadInput stream it, sha256
// checked by ArtifactStore::Open), for the local directory and for chunks in PostgreSQL. Also prints the peak RSS
// growth: a store that held the whole artifact in memory would show it.
//
//   artifact_bench [--store local|postgres|both] [--mib 256] [--append-kib 1024] [--read-kib 256] [--repeat 3]
//                  [--database-url URL] [--dir DIR] [--no-fsync]
// Without a URL (or HIPFORGE_TEST_DATABASE_URL) it starts an embedded PostgreSQL in --dir, durable (fsync on) like
// the server's default; --no-fsync runs it as the tests do.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include <CLI/CLI.hpp>
#include <pqxx/pqxx>

#include "common/clock.h"
#include "common/process.h"
#include "common/sha256.h"
#include "server/store/embedded_postgres.h"
#include "server/store/local_artifact_store.h"
#include "server/store/postgres_artifact_store.h"
#include "server/store/postgres_job_store.h"

namespace {

namespace fs = std::filesystem;
using hipforge::server::ArtifactReader;
using hipforge::server::ArtifactStore;
using hipforge::server::StoredArtifact;
using Steady = std::chrono::steady_clock;

struct Shape {
  int64_t bytes;
  size_t append_bytes;
  size_t read_bytes;
};

double Seconds(Steady::duration d) { return std::chrono::duration<double>(d).count(); }

long PeakRssKib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Appends of pseudo-random bytes (incompressible, like the zstd archives uploads are); each append differs, so
// no two PostgreSQL chunks are alike and nothing is deduplicated. `run` makes each repetition's artifact new.
absl::StatusOr<StoredArtifact> WriteOne(ArtifactStore& store, const Shape& shape, const std::string& block, int run) {
  absl::StatusOr<std::unique_ptr<hipforge::server::ArtifactWriter>> writer = store.NewWriter(shape.bytes);
  if (!writer.ok()) return writer.status();
  std::string piece;
  for (int64_t offset = 0, n = 0; offset < shape.bytes; offset += static_cast<int64_t>(shape.append_bytes), ++n) {
    piece.assign(block, 0, static_cast<size_t>(std::min<int64_t>(shape.append_bytes, shape.bytes - offset)));
    const std::string stamp = std::to_string(run) + ":" + std::to_string(n) + ":";
    piece.replace(0, std::min(stamp.size(), piece.size()), stamp, 0, std::min(stamp.size(), piece.size()));
    if (absl::Status appended = (*writer)->Append(piece); !appended.ok()) return appended;
  }
  return (*writer)->Finish();
}

absl::Status ReadOne(const ArtifactStore& store, const StoredArtifact& stored, const Shape& shape) {
  absl::StatusOr<std::unique_ptr<ArtifactReader>> reader = store.Open(stored.digest);
  if (!reader.ok()) return reader.status();
  int64_t total = 0;
  for (;;) {
    absl::StatusOr<std::string> piece = (*reader)->Read(shape.read_bytes);
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    total += static_cast<int64_t>(piece->size());
  }
  if (total != stored.size_bytes) return absl::DataLossError("short read");
  return absl::OkStatus();
}

// Writes and reads `repeat` artifacts, printing one line each and the best of each direction.
int Measure(const std::string& name, ArtifactStore& store, const Shape& shape, int repeat, const std::string& block) {
  const double mib = static_cast<double>(shape.bytes) / (1 << 20);
  double best_write = 0, best_read = 0;
  const long rss_before = PeakRssKib();
  for (int run = 0; run < repeat; ++run) {
    const auto start = Steady::now();
    absl::StatusOr<StoredArtifact> stored = WriteOne(store, shape, block, run);
    const auto written = Steady::now();
    if (!stored.ok()) {
      std::fprintf(stderr, "%s: write failed: %s\n", name.c_str(), stored.status().ToString().c_str());
      return 1;
    }
    if (absl::Status read = ReadOne(store, *stored, shape); !read.ok()) {
      std::fprintf(stderr, "%s: read failed: %s\n", name.c_str(), read.ToString().c_str());
      return 1;
    }
    const auto done = Steady::now();
    const double write_mbs = mib / Seconds(written - start);
    const double read_mbs = mib / Seconds(done - written);
    std::printf("%-8s run %d: write %7.1f MiB/s (%.2f s)  read+verify %7.1f MiB/s (%.2f s)\n", name.c_str(), run + 1,
                write_mbs, Seconds(written - start), read_mbs, Seconds(done - written));
    best_write = std::max(best_write, write_mbs);
    best_read = std::max(best_read, read_mbs);
  }
  std::printf("%-8s best:  write %7.1f MiB/s  read+verify %7.1f MiB/s  peak RSS growth %ld MiB\n", name.c_str(),
              best_write, best_read, (PeakRssKib() - rss_before) >> 10);
  // The collector's pass over what this left (nothing is referenced; the cut-off is in the future).
  const auto start = Steady::now();
  absl::StatusOr<int> removed = store.RemoveUnreferenced({}, std::chrono::system_clock::now() + std::chrono::hours(1));
  std::printf("%-8s collect: %d row(s)/file(s) removed in %.2f s\n", name.c_str(), removed.ok() ? *removed : -1,
              Seconds(Steady::now() - start));
  return 0;
}

// The PostgreSQL store on a fresh schema of `database_url` (HIPFORGE_TEST_DATABASE_URL, or an embedded cluster in
// root/pg when both are empty), dropped afterwards.
int MeasurePostgres(const Shape& shape, int repeat, const std::string& block, const fs::path& root,
                    std::string database_url, bool no_fsync) {
  hipforge::BoostProcessLauncher launcher;
  std::unique_ptr<hipforge::server::EmbeddedPostgres> embedded;
  if (database_url.empty()) {
    if (const char* env = std::getenv("HIPFORGE_TEST_DATABASE_URL"); env != nullptr) database_url = env;
  }
  if (database_url.empty()) {
    hipforge::server::EmbeddedPostgresOptions options;
    options.data_dir = root / "pg";
    options.durable = !no_fsync;
    auto server = hipforge::server::EmbeddedPostgres::Start(launcher, options);
    if (!server.ok()) {
      std::fprintf(stderr, "cannot start embedded PostgreSQL: %s\n", std::string(server.status().message()).c_str());
      return 1;
    }
    embedded = std::move(*server);
    database_url = embedded->ConnectionString();
    std::printf("database: embedded PostgreSQL (fsync %s)\n", no_fsync ? "off" : "on");
  } else {
    std::printf("database: given URL\n");  // not printed: it may carry a password
  }
  const std::string schema = "bench_" + hipforge::Sha256Hex(std::to_string(std::random_device{}())).substr(0, 12);
  if (auto applied = hipforge::server::ApplyMigrations(database_url, schema); !applied.ok()) {
    std::fprintf(stderr, "migrations: %s\n", applied.status().ToString().c_str());
    return 1;
  }
  hipforge::SystemClock clock;
  hipforge::server::PostgresArtifactStoreOptions options;
  options.database_url = database_url;
  options.schema = schema;
  options.default_max_bytes = shape.bytes;
  std::printf("postgres chunks: %lld KiB\n", static_cast<long long>(options.chunk_bytes >> 10));
  int rc = 1;
  {
    absl::StatusOr<std::unique_ptr<ArtifactStore>> store = hipforge::server::OpenPostgresArtifactStore(options, clock);
    if (!store.ok()) std::fprintf(stderr, "postgres store: %s\n", store.status().ToString().c_str());
    if (store.ok()) rc = Measure("postgres", **store, shape, repeat, block);
  }
  pqxx::connection connection(database_url);
  pqxx::work tx(connection);
  tx.exec("DROP SCHEMA " + tx.quote_name(schema) + " CASCADE");
  tx.commit();
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hipforge artifact store benchmark"};
  std::string which = "both";
  int64_t mib = 256;
  int64_t append_kib = 1024;
  int64_t read_kib = 256;
  int repeat = 3;
  std::string database_url;
  std::string dir;
  bool no_fsync = false;
  app.add_option("--store", which, "local, postgres or both")->check(CLI::IsMember({"local", "postgres", "both"}));
  app.add_option("--mib", mib, "artifact size in MiB")->check(CLI::Range(1, 4096));
  app.add_option("--append-kib", append_kib, "bytes per Append, KiB")->check(CLI::Range(1, 65536));
  app.add_option("--read-kib", read_kib, "bytes per Read, KiB (the server streams 256 KiB)")
      ->check(CLI::Range(1, 65536));
  app.add_option("--repeat", repeat, "artifacts per store")->check(CLI::Range(1, 100));
  app.add_option("--database-url", database_url, "PostgreSQL URL (default: embedded cluster in --dir)");
  app.add_option("--dir", dir, "where the local store and the embedded cluster live (default: a temp dir in /tmp)");
  app.add_flag("--no-fsync", no_fsync, "embedded PostgreSQL without fsync (as the tests run it)");
  CLI11_PARSE(app, argc, argv);

  const Shape shape{mib << 20, static_cast<size_t>(append_kib << 10), static_cast<size_t>(read_kib << 10)};
  std::string block(shape.append_bytes, '\0');
  std::mt19937_64 rng{42};
  for (size_t i = 0; i + 8 <= block.size(); i += 8) {
    const uint64_t word = rng();
    block.replace(i, 8, reinterpret_cast<const char*>(&word), 8);
  }
  fs::path root = dir;
  if (root.empty()) {
    char pattern[] = "/tmp/hipforge-artifact-bench-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) return 1;
    root = pattern;
  }
  std::printf("artifact: %lld MiB in %lld KiB appends, read in %lld KiB pieces, %d run(s); dir %s; %ld CPU(s)\n",
              static_cast<long long>(mib), static_cast<long long>(append_kib), static_cast<long long>(read_kib), repeat,
              root.c_str(), ::sysconf(_SC_NPROCESSORS_ONLN));
  int rc = 0;
  if (which != "postgres") {
    hipforge::server::LocalArtifactStore local(root / "local", shape.bytes);
    if (absl::Status init = local.Init(); !init.ok()) return 1;
    rc |= Measure("local", local, shape, repeat, block);
  }
  if (which != "local") rc |= MeasurePostgres(shape, repeat, block, root, database_url, no_fsync);
  if (dir.empty()) {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
  return rc;
}
