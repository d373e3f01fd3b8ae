// The embedded cluster migrate-server owns when it has no --database-url (works as root and not).
#include "server/store/embedded_postgres.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <pqxx/pqxx>
#include <thread>

#include "common/clock.h"
#include "server/store/postgres_job_store.h"

namespace hipforge::server {
namespace {
namespace fs = std::filesystem;

TEST(EmbeddedPostgresTest, StartsKeepsDataAcrossRestartsAndTakesOverStaleServer) {
  // mkdtemp makes a 0700 directory: as root, PostgreSQL's user cannot pass through it, which
  // exercises the relocation of the cluster; as a normal user it is used as is.
  char pattern[] = "/tmp/hipforge-embedded-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const fs::path dir = fs::path(pattern) / "server data";  // a space in the path on purpose
  BoostProcessLauncher launcher;
  EmbeddedPostgresOptions options;
  options.data_dir = dir;
  options.database = "hipforge";
  options.durable = false;

  std::string url;
  {
    auto server = EmbeddedPostgres::Start(launcher, options);
    ASSERT_TRUE(server.ok()) << server.status();
    url = (*server)->ConnectionString();
    pqxx::connection connection(url);
    pqxx::work tx(connection);
    tx.exec("CREATE TABLE kept (v text)");
    tx.exec("INSERT INTO kept VALUES ('survives restarts')");
    tx.commit();
    EXPECT_EQ(connection.dbname(), std::string("hipforge"));
  }  // stopped here
  EXPECT_THROW(pqxx::connection{url}, pqxx::broken_connection) << "server still running after destruction";

  auto first = EmbeddedPostgres::Start(launcher, options);
  ASSERT_TRUE(first.ok()) << first.status();
  {
    pqxx::connection connection((*first)->ConnectionString());
    pqxx::work tx(connection);
    EXPECT_EQ(tx.exec("SELECT v FROM kept")[0][0].as<std::string>(), "survives restarts");
  }
  // A second owner of the same directory (the first one "crashed" without stopping) takes over.
  auto second = EmbeddedPostgres::Start(launcher, options);
  ASSERT_TRUE(second.ok()) << second.status();
  {
    pqxx::connection connection((*second)->ConnectionString());
    pqxx::work tx(connection);
    EXPECT_EQ(tx.exec("SELECT count(*) FROM kept")[0][0].as<int>(), 1);
  }
  EXPECT_TRUE((*second)->Stop().ok());
  EXPECT_TRUE((*second)->Stop().ok()) << "Stop is idempotent";
  const fs::path cluster_dir = (*second)->cluster_dir();
  first->reset();  // its server is already gone; destruction must not hang or crash
  second->reset();
  fs::remove_all(pattern);
  // As root with a closed parent directory the cluster lives outside the data directory.
  if (cluster_dir.string().rfind(pattern, 0) != 0) fs::remove_all(cluster_dir.parent_path());
}

TEST(EmbeddedPostgresTest, StoreReconnectsAfterDatabaseRestart) {
  char pattern[] = "/tmp/hipforge-restart-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  BoostProcessLauncher launcher;
  EmbeddedPostgresOptions options;
  options.data_dir = pattern;
  options.durable = false;
  auto server = EmbeddedPostgres::Start(launcher, options);
  ASSERT_TRUE(server.ok()) << server.status();
  SystemClock clock;
  PostgresStoreOptions store_options;
  store_options.database_url = (*server)->ConnectionString();
  store_options.schema = "restart";
  auto store = OpenPostgresJobStore(store_options, clock);
  ASSERT_TRUE(store.ok()) << store.status();
  JobSpec spec;
  spec.name = "before-restart";
  auto job = (*store)->CreateJob(spec, {"input", std::string(64, 'd'), 1, "application/x-tar"});
  ASSERT_TRUE(job.ok()) << job.status();

  // The database restarts under a running store: pooled and LISTEN connections are now dead.
  server->reset();
  server = EmbeddedPostgres::Start(launcher, options);
  ASSERT_TRUE(server.ok()) << server.status();

  auto again = (*store)->GetJob(job->id);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->state, JobState::kQueued);
  auto leased = (*store)->LeaseTask(LeaseRequest{"w", {TaskKind::kTranslate}, {}, std::chrono::seconds(30)});
  ASSERT_TRUE(leased.ok()) << leased.status();
  ASSERT_TRUE(leased->has_value());
  EXPECT_EQ((*leased)->job_id, job->id);
  // The LISTEN connection comes back too: a new job wakes a waiter.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // listener reconnects within ~1 s
  (*store)->WaitForWork(std::chrono::milliseconds(10));           // consume the reconnect wake-up
  auto waiter = std::async(std::launch::async, [&] { return (*store)->WaitForWork(std::chrono::seconds(20)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  spec.name = "after-restart";
  ASSERT_TRUE((*store)->CreateJob(spec, {"input", std::string(64, 'e'), 1, "application/x-tar"}).ok());
  EXPECT_TRUE(waiter.get());
  store->reset();
  server->reset();
  fs::remove_all(pattern);
}

TEST(EmbeddedPostgresTest, MissingBinariesGiveAClearError) {
  BoostProcessLauncher launcher;
  EmbeddedPostgresOptions options;
  options.data_dir = "/tmp/hipforge-embedded-never";
  options.bin_dir = "/nonexistent/bin";
  auto server = EmbeddedPostgres::Start(launcher, options);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(std::string(server.status().message()).find("--database-url"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::server
