// Another local account on the server's machine (issue 24, items 1-2): it must not reach the embedded
// cluster (connect, log in as the superuser, write a token row) nor read any team's artifacts. The
// attacker is a real second Unix user (`nobody`, through runuser) when the test runs as root; the
// modes are checked for every user.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>

#include "common/process.h"
#include "server/store/data_dir.h"
#include "server/store/embedded_postgres.h"
#include "server/store/local_artifact_store.h"
#include "tests/support/scratch_dir.h"

namespace hipforge::server {
namespace {
namespace fs = std::filesystem;

mode_t ModeOf(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

bool CanActAsNobody() { return ::geteuid() == 0 && !FindProgram("runuser").empty() && !FindProgram("psql").empty(); }

// Runs `argv` as the unprivileged user nobody; its result.
ProcessResult AsNobody(std::vector<std::string> argv) {
  ProcessSpec spec;
  spec.argv = {"runuser", "-u", "nobody", "--"};
  spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
  spec.working_directory = "/";
  spec.timeout = std::chrono::seconds(30);
  BoostProcessLauncher launcher;
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *result : ProcessResult{};
}

class LocalAccountTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // A parent any account may pass through (like /srv or /var/lib): only the data dir's own modes,
    // the cluster's and the artifacts' protect them.
    fs::permissions(scratch_.path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec |
                                         fs::perms::group_read | fs::perms::others_read);
    data_dir_ = scratch_.path() / "data";
  }
  testing::ScratchDir scratch_{"local-account"};
  fs::path data_dir_;
};

TEST_F(LocalAccountTest, AnotherAccountCannotReachTheClusterNorReadArtifacts) {
  absl::StatusOr<fs::path> opened = OpenPrivateDataDir(data_dir_);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(ModeOf(data_dir_) & 066, 0u) << "group or others may read or write the data dir";
  BoostProcessLauncher launcher;
  EmbeddedPostgresOptions options;
  options.data_dir = *opened / "pg";
  options.durable = false;
  auto cluster = EmbeddedPostgres::Start(launcher, options);
  ASSERT_TRUE(cluster.ok()) << cluster.status();
  LocalArtifactStore artifacts(*opened, 1 << 20);
  ASSERT_TRUE(artifacts.Init().ok());
  absl::StatusOr<StoredArtifact> stored = artifacts.Put("__global__ void team_a_secret() {}\n");
  ASSERT_TRUE(stored.ok()) << stored.status();
  const fs::path artifact = *artifacts.PathOf(stored->digest);
  EXPECT_EQ(ModeOf(artifact), 0600u);
  EXPECT_EQ(ModeOf(artifact.parent_path()), 0700u);
  EXPECT_EQ(ModeOf(artifacts.root()), 0700u);

  // The owner still gets in, and the access rules allow nothing but peer authentication.
  const std::string url = (*cluster)->ConnectionString();
  pqxx::connection owner(url);
  EXPECT_TRUE(owner.is_open());
  std::ifstream hba((*cluster)->cluster_dir() / "pg_hba.conf");
  const std::string rules((std::istreambuf_iterator<char>(hba)), {});
  EXPECT_EQ(rules.find("trust"), std::string::npos) << rules;
  EXPECT_NE(rules.find("peer"), std::string::npos) << rules;

  if (!CanActAsNobody()) GTEST_SKIP() << "not root (or no runuser/psql): the second-account half needs root";
  // What the attack did: connect as the superuser, write a row. Both the superuser name and the
  // account's own name are refused.
  for (const std::string& user : {std::string("postgres"), std::string("nobody")}) {
    ProcessResult result =
        AsNobody({"psql", url + " user=" + user, "-v", "ON_ERROR_STOP=1", "-c", "CREATE TABLE intruder (v text)"});
    EXPECT_NE(result.exit_code, 0) << "nobody connected as " << user << ": " << result.standard_output;
  }
  ProcessResult read = AsNobody({"cat", artifact.string()});
  EXPECT_NE(read.exit_code, 0) << "nobody read an artifact: " << read.standard_output;
  EXPECT_EQ(read.standard_output.find("team_a_secret"), std::string::npos);
  ProcessResult listed = AsNobody({"ls", (*opened / "artifacts").string()});
  EXPECT_NE(listed.exit_code, 0) << "nobody listed the artifacts: " << listed.standard_output;
}

TEST_F(LocalAccountTest, ADataDirOthersCanReadIsRefusedNamingTheFix) {
  fs::create_directories(data_dir_ / "artifacts");
  fs::permissions(data_dir_, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec);
  absl::StatusOr<fs::path> opened = OpenPrivateDataDir(data_dir_);
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(opened.status().message().find("chmod 7"), std::string::npos) << opened.status();
  EXPECT_EQ(ModeOf(data_dir_), 0755u) << "an exposed data dir with data in it is left as it was";
  // An empty one (just created by an installer) is simply made private.
  const fs::path fresh = scratch_.path() / "fresh";
  fs::create_directories(fresh);
  fs::permissions(fresh, fs::perms::all);
  ASSERT_TRUE(OpenPrivateDataDir(fresh).ok());
  EXPECT_EQ(ModeOf(fresh) & 066, 0u);
}

}  // namespace
}  // namespace hipforge::server
