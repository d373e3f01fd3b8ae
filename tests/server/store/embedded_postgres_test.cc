// The embedded cluster migrate-server owns when it has no --database-url (works as root and not).
#include "server/store/embedded_postgres.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <pqxx/pqxx>

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
