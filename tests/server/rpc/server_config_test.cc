// migrate-server configuration layering: flag > environment > YAML file > default.
#include <cstdlib>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "server/server_config.h"

namespace hipforge::server {
namespace {

namespace fs = std::filesystem;

absl::StatusOr<ServerConfig> Load(std::vector<std::string> args) {
  args.insert(args.begin(), "migrate-server");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return LoadServerConfig(static_cast<int>(argv.size()), argv.data());
}

class ServerConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = fs::temp_directory_path() / ("hipforge-config-" + std::to_string(::getpid()) + ".yaml");
  }
  void TearDown() override {
    ::unsetenv("MIGRATE_LOCAL_WORKERS");
    ::unsetenv("MIGRATE_LEASE_MS");
    fs::remove(file_);
  }
  fs::path file_;
};

TEST_F(ServerConfigTest, DefaultsWithoutAnything) {
  absl::StatusOr<ServerConfig> config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->listen, "127.0.0.1:50051");
  EXPECT_TRUE(config->database_url.empty());
  EXPECT_EQ(config->local_workers, 0);
  EXPECT_EQ(config->artifact_store, "local");
}

TEST_F(ServerConfigTest, ArtifactStoreIsLocalOrPostgres) {
  absl::StatusOr<ServerConfig> config = Load({"--artifact-store=postgres"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->artifact_store, "postgres");
  absl::StatusOr<ServerConfig> nfs = Load({"--artifact-store", "nfs"});
  EXPECT_EQ(nfs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(nfs.status().message()), ::testing::HasSubstr("local or postgres"));
}

TEST_F(ServerConfigTest, FlagBeatsEnvironmentBeatsFile) {
  // A non-loopback listener without TLS must be allowed explicitly (docs/security.md).
  std::ofstream(file_)
      << "local-workers: 1\nlease-ms: 7000\nmax-upload-bytes: 2M\nlisten: 0.0.0.0:6000\ninsecure: true\n";
  ::setenv("MIGRATE_LOCAL_WORKERS", "2", 1);
  ::setenv("MIGRATE_LEASE_MS", "9000", 1);
  absl::StatusOr<ServerConfig> config = Load({"--config", file_.string(), "--local-workers", "3"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->local_workers, 3);                              // flag
  EXPECT_EQ(config->limits.lease_duration.count(), 9000);           // env
  EXPECT_EQ(config->limits.upload.max_compressed_bytes, 2u << 20);  // file
  EXPECT_EQ(config->listen, "0.0.0.0:6000");                        // file
}

TEST_F(ServerConfigTest, BadValuesAreReported) {
  std::ofstream(file_) << "no-such-key: 1\n";
  absl::StatusOr<ServerConfig> config = Load({"--config", file_.string()});
  EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(config.status().message()), ::testing::HasSubstr("no-such-key"));
  EXPECT_EQ(Load({"--local-workers", "many"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Load({"--lease-ms", "5"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Load({"--bogus-flag"}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace hipforge::server
