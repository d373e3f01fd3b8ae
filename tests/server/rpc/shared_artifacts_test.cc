// Two migrate-servers on one PostgreSQL with --artifact-store=postgres and separate data dirs (no shared disk):
// an upload through one is the input a worker downloads through the other, and what the worker stores through
// that one is fetched through the first (issue 27 item 1). ReplicaSetTest: the pair as a replica set (item 2) --
// a worker of one runs a job submitted through the other and woken by its NOTIFY, either answers every RPC of
// it, migrations started by both at once apply once, two lease rescuers rescue an expired lease once.
#include <algorithm>
#include <filesystem>
#include <future>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include "common/grpc_channel.h"
#include "common/sha256.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"
#include "tests/server/store/postgres_test_env.h"

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

class ReplicaSetTest : public SharedArtifactStoreTest {
 protected:
  // Every event of the job through `api`, from the first, until the job ends (or 30 s).
  static std::vector<v1::JobEvent> WatchToEnd(v1::MigrationService::Stub& api, const std::string& job_id,
                                              grpc::Status* status) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::WatchJobRequest request;
    request.set_job_id(job_id);
    auto reader = api.WatchJob(&context, request);
    std::vector<v1::JobEvent> events;
    v1::JobEvent event;
    while (reader->Read(&event)) events.push_back(event);
    *status = reader->Finish();
    return events;
  }
};

TEST_F(ReplicaSetTest, AJobSubmittedThroughBIsRunByAWorkerOfAndEitherServerAnswersForIt) {
  ASSERT_NO_FATAL_FAILURE(StartSecondServer());
  auto api_b = v1::MigrationService::NewStub(ChannelTo(second_->address(), MintTeamToken("qa")));
  // The worker talks to A only, and is already waiting in its long poll when the job arrives through B: B's
  // enqueue NOTIFYs the shared database, and A's listener wakes the poll.
  ASSERT_TRUE(Register(*workers_, "worker-a").ok());
  auto leased = std::async(std::launch::async, [&] { return Lease(*workers_, "worker-a", 5000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  SubmitOutcome submitted = SubmitArchive(*api_b, TestSpec("through-b"), SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  const std::string id = submitted.job.id();
  std::optional<v1::Task> task = leased.get();
  ASSERT_TRUE(task.has_value()) << "the worker on A was not handed the job submitted through B";
  EXPECT_EQ(task->lease().job_id(), id);

  // B follows the job the worker of A runs, from the first event to the last.
  grpc::Status watch_b;
  auto watched = std::async(std::launch::async, [&] { return WatchToEnd(*api_b, id, &watch_b); });
  std::string input;
  ASSERT_TRUE(Download(*workers_, *task, &input).ok());
  const std::string patch = "--- a/src/k.cu\n+++ b/src/k.cu\n@@ -1 +1 @@\n-cudaMalloc\n+hipMalloc\n";
  const std::string tree = std::string(200000, 't');
  v1::CompleteResponse completed;
  ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(id, 1),
                       {{v1::ARTIFACT_KIND_TRANSLATED_TREE, tree}, {v1::ARTIFACT_KIND_PATCH, patch}}, &completed)
                  .ok());
  EXPECT_TRUE(completed.accepted());
  const std::vector<v1::JobEvent> events = watched.get();
  ASSERT_TRUE(watch_b.ok()) << watch_b.error_message();
  ASSERT_FALSE(events.empty());
  EXPECT_TRUE(std::any_of(events.begin(), events.end(), [](const v1::JobEvent& event) {
    return event.state_change().to() == v1::JOB_STATE_SUCCEEDED;
  })) << "B's watch did not see the end";
  grpc::Status watch_a;
  const std::vector<v1::JobEvent> events_a = WatchToEnd(*api_, id, &watch_a);
  ASSERT_EQ(events_a.size(), events.size()) << "A and B tell different stories";
  for (size_t i = 0; i < events.size(); ++i) EXPECT_EQ(events_a[i].sequence(), events[i].sequence());

  // GetJob, GetReport and both artifacts: the same answer from either server.
  for (v1::MigrationService::Stub* api : {api_.get(), api_b.get()}) {
    grpc::ClientContext context;
    v1::GetReportRequest request;
    request.set_job_id(id);
    v1::Report report;
    ASSERT_TRUE(api->GetReport(&context, request, &report).ok());
    EXPECT_EQ(report.translation().files(), 1);
    std::string fetched;
    v1::ArtifactInfo info;
    ASSERT_TRUE(FetchAll(*api, id, v1::ARTIFACT_KIND_TRANSLATED_TREE, &fetched, &info).ok());
    EXPECT_EQ(info.sha256(), Sha256Hex(tree));
    EXPECT_EQ(fetched, tree);
    ASSERT_TRUE(FetchAll(*api, id, v1::ARTIFACT_KIND_PATCH, &fetched, &info).ok());
    EXPECT_EQ(fetched, patch);
  }
}

TEST_F(ReplicaSetTest, MigrationsStartedByTwoServersAtOnceApplyOnce) {
  // A fresh schema, and two servers starting on it at the same moment: one migration runner, the other waits
  // on the advisory lock and finds nothing left to apply (a second apply would fail recording its version).
  ServerConfig config = config_;
  config.database_schema = FreshSchemaName();
  std::vector<std::future<absl::StatusOr<std::unique_ptr<ServerApp>>>> starting;
  for (const char* name : {"data-c", "data-d"}) {
    ServerConfig own = config;
    own.data_dir = temp_dir_ / name;
    starting.push_back(
        std::async(std::launch::async, [this, own] { return ServerApp::Start(own, launcher_, clock_, nullptr); }));
  }
  std::vector<std::unique_ptr<ServerApp>> started;
  for (auto& future : starting) {
    absl::StatusOr<std::unique_ptr<ServerApp>> app = future.get();
    ASSERT_TRUE(app.ok()) << app.status();
    started.push_back(*std::move(app));
  }
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::nontransaction tx(connection);
  const pqxx::result rows =
      tx.exec("SELECT version, count(*) OVER () FROM " + tx.quote_name(config.database_schema) + ".schema_migrations");
  std::set<int> versions;
  for (const auto& row : rows) versions.insert(row[0].as<int>());
  EXPECT_EQ(versions.size(), rows.size());
  EXPECT_GE(versions.size(), 12u) << "every migration recorded once";
  for (auto& app : started) app->Shutdown();
  tx.exec("DROP SCHEMA " + tx.quote_name(config.database_schema) + " CASCADE");
}

TEST_F(ReplicaSetTest, AnExpiredLeaseIsRescuedOnceWithARescuerOnEachServer) {
  ASSERT_NO_FATAL_FAILURE(StartSecondServer());  // both rescue every 100 ms
  auto api_b = v1::MigrationService::NewStub(ChannelTo(second_->address(), MintTeamToken("qa")));
  SubmitOutcome submitted = SubmitArchive(*api_, TestSpec("rescued-once"), SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  ASSERT_TRUE(Register(*workers_, "silent").ok());
  std::optional<v1::Task> first = Lease(*workers_, "silent", 5000);
  ASSERT_TRUE(first.has_value());
  // No heartbeat: the 5 s lease runs out with two rescuers racing for it. The next lease is attempt 2, not 3.
  std::optional<v1::Task> second = Lease(*workers_, "silent", 5000);
  for (int i = 0; i < 3 && !second.has_value(); ++i) second = Lease(*workers_, "silent", 5000);
  ASSERT_TRUE(second.has_value()) << "the expired lease was not rescued";
  EXPECT_EQ(second->attempt(), 2);
  v1::CompleteResponse completed;
  ASSERT_TRUE(Complete(*workers_, *second, TranslationReport(second->lease().job_id(), 1), {}, &completed).ok());
  EXPECT_TRUE(completed.accepted());
  grpc::ClientContext context;
  v1::GetJobRequest request;
  request.set_job_id(second->lease().job_id());
  v1::Job job;
  ASSERT_TRUE(api_b->GetJob(&context, request, &job).ok());
  EXPECT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(job.attempts(), 2);
}

}  // namespace
}  // namespace hipforge::server::testing
