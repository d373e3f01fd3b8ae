// Two migrate-servers on one PostgreSQL with --artifact-store=postgres and separate data dirs (no shared disk):
// an upload through one is the input a worker downloads through the other, and what the worker stores through
// that one is fetched through the first (issue 27 item 1).
#include <filesystem>

#include <gtest/gtest.h>

#include "common/grpc_channel.h"
#include "common/sha256.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"

namespace hipforge::server::testing {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<grpc::Channel> ChannelTo(const std::string& address, const std::string& token) {
  ChannelSecurity security;
  security.token = token;
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(address, security);
  EXPECT_TRUE(channel.ok()) << channel.status();
  return channel.ok() ? *channel : nullptr;
}

class SharedArtifactStoreTest : public ServerTest {
 protected:
  void Configure(ServerConfig& config) override { config.artifact_store = "postgres"; }

  void TearDown() override {
    if (second_) second_->Shutdown();
    second_.reset();
    ServerTest::TearDown();
  }

  // Server B: the same database and schema, its own data dir.
  void StartSecondServer() {
    ServerConfig config = config_;
    config.data_dir = temp_dir_ / "data-b";
    absl::StatusOr<std::unique_ptr<ServerApp>> started = ServerApp::Start(config, launcher_, clock_, nullptr);
    ASSERT_TRUE(started.ok()) << started.status();
    second_ = *std::move(started);
  }

  std::unique_ptr<ServerApp> second_;
};

TEST_F(SharedArtifactStoreTest, EachServerServesWhatTheOtherStored) {
  ASSERT_NO_FATAL_FAILURE(StartSecondServer());
  // Credentials live in the shared database: tokens minted through A work on B.
  auto workers_b = v1::WorkerService::NewStub(ChannelTo(second_->address(), MintWorkerCredential()));
  auto api_b = v1::MigrationService::NewStub(ChannelTo(second_->address(), MintTeamToken("qa")));

  const std::string archive = SmallCudaRepoArchive();
  SubmitOutcome submitted = SubmitArchive(*api_, TestSpec("shared-store"), archive);
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();

  ASSERT_TRUE(Register(*workers_b, "worker-b").ok());
  std::optional<v1::Task> task = Lease(*workers_b, "worker-b", 5000);
  ASSERT_TRUE(task.has_value());
  std::string input;
  v1::ArtifactInfo input_info;
  grpc::Status downloaded = Download(*workers_b, *task, &input, &input_info);
  ASSERT_TRUE(downloaded.ok()) << downloaded.error_message();
  EXPECT_EQ(input, archive) << "B serves the upload A stored";
  EXPECT_EQ(input_info.sha256(), Sha256Hex(archive));

  // A patch over a megabyte: more than one PostgreSQL chunk.
  std::string patch;
  for (int i = 0; patch.size() < (3 << 19); ++i) patch += "+ hipLaunchKernelGGL line " + std::to_string(i) + "\n";
  v1::CompleteResponse completed;
  grpc::Status complete = Complete(*workers_b, *task, TranslationReport(submitted.job.id(), 1),
                                   {{v1::ARTIFACT_KIND_PATCH, patch}}, &completed);
  ASSERT_TRUE(complete.ok()) << complete.error_message();
  EXPECT_TRUE(completed.accepted());

  std::string fetched;
  v1::ArtifactInfo fetched_info;
  grpc::Status fetch = FetchAll(*api_, submitted.job.id(), v1::ARTIFACT_KIND_PATCH, &fetched, &fetched_info);
  ASSERT_TRUE(fetch.ok()) << fetch.error_message();
  EXPECT_EQ(fetched, patch) << "A serves the patch B stored";
  EXPECT_EQ(fetched_info.sha256(), Sha256Hex(patch));
  fetched.clear();
  ASSERT_TRUE(FetchAll(*api_b, submitted.job.id(), v1::ARTIFACT_KIND_PATCH, &fetched, &fetched_info).ok());
  EXPECT_EQ(fetched, patch);

  // Neither server put an artifact on its own disk.
  EXPECT_FALSE(fs::exists(config_.data_dir / "artifacts"));
  EXPECT_FALSE(fs::exists(temp_dir_ / "data-b" / "artifacts"));
}

}  // namespace
}  // namespace hipforge::server::testing
