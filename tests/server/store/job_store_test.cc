// Jobs, listing, workers, artifacts and migrations against a real PostgreSQL.
#include <gtest/gtest.h>

#include <future>
#include <pqxx/pqxx>
#include <set>

#include "server/store/sql_catalog.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server::testing {
namespace {

class JobStoreTest : public StoreTest {};

TEST_F(JobStoreTest, CreateAndGetJobRoundTripsSpec) {
  JobSpec spec;
  spec.name = "saxpy";
  spec.team = "hpc";
  spec.labels = {{"ci", "nightly"}, {"repo", "saxpy"}};
  spec.targets = {"gfx90a", "gfx942"};
  spec.options_json = R"({"patch":true})";
  spec.validate = false;
  spec.input_files = 3;
  const ArtifactRef input = FakeInput("saxpy.tar");
  auto created = store_->CreateJob(spec, input);
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(created->state, JobState::kQueued);
  EXPECT_EQ(created->created_at, clock_.Now());

  auto job = store_->GetJob(created->id);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->spec.name, "saxpy");
  EXPECT_EQ(job->spec.team, "hpc");
  EXPECT_EQ(job->spec.labels, spec.labels);
  EXPECT_EQ(job->spec.targets, spec.targets);
  EXPECT_EQ(job->spec.options_json, R"({"patch": true})");
  EXPECT_FALSE(job->spec.validate);
  EXPECT_EQ(job->spec.input_files, 3);
  EXPECT_EQ(job->input_digest, input.digest);

  auto artifacts = store_->ListArtifacts(created->id);
  ASSERT_TRUE(artifacts.ok());
  ASSERT_EQ(artifacts->size(), 1u);
  EXPECT_EQ((*artifacts)[0].role, "input");
  EXPECT_EQ((*artifacts)[0].digest, input.digest);
  EXPECT_EQ((*artifacts)[0].size_bytes, input.size_bytes);
  EXPECT_EQ((*artifacts)[0].media_type, "application/x-tar");
}

// A submission sent again after its answer was lost (issue 27): the same team and submit request id return the job
// the first made, with nothing stored again (one translate task, one queued event); another team's id, or no id,
// makes a job. Concurrent tries of one id make one job too.
TEST_F(JobStoreTest, CreateJobWithARequestIdItAlreadyHasReturnsThatJob) {
  JobSpec spec;
  spec.name = "again";
  spec.team = "hpc";
  spec.request_id = "ci-1234.5:retry-safe";
  auto first = store_->CreateJob(spec, FakeInput("first.tar"));
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = store_->CreateJob(spec, FakeInput("second.tar"));
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->id, first->id);
  EXPECT_EQ(second->input_digest, first->input_digest) << "the first try's input stays the job's";
  auto tasks = store_->ListTasks(first->id);
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_EQ(tasks->size(), 1u);
  auto events = store_->ListEventsSince(first->id, 0);
  ASSERT_TRUE(events.ok()) << events.status();
  EXPECT_EQ(events->size(), 1u);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM jobs"), "1");

  JobSpec other_team = spec;
  other_team.team = "cpu";
  auto other = store_->CreateJob(other_team, FakeInput("first.tar"));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(other->id, first->id);
  JobSpec no_id = spec;
  no_id.request_id.clear();
  EXPECT_NE(store_->CreateJob(no_id, FakeInput("first.tar"))->id, store_->CreateJob(no_id, FakeInput("first.tar"))->id);

  spec.request_id = "raced";
  std::vector<std::future<absl::StatusOr<Job>>> tries;
  for (int i = 0; i < 4; ++i) {
    tries.push_back(std::async(std::launch::async, [&] { return store_->CreateJob(spec, FakeInput("raced.tar")); }));
  }
  std::set<std::string> ids;
  for (auto& attempt : tries) {
    absl::StatusOr<Job> job = attempt.get();
    ASSERT_TRUE(job.ok()) << job.status();
    ids.insert(job->id);
  }
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM jobs WHERE submit_request_id = 'raced'"), "1");
}

TEST_F(JobStoreTest, UnknownOrMalformedJobIdIsNotFound) {
  EXPECT_EQ(store_->GetJob("7d9c1a8e-0000-4000-8000-000000000000").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->GetJob("../../etc").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->CancelJob("nope", "").status().code(), absl::StatusCode::kNotFound);
}

// Short ids (JobService::ResolveJobId): the team's jobs whose id starts with the hex digits, in id order, at most
// `limit`; another team's jobs are not there.
TEST_F(JobStoreTest, FindTeamJobIdsMatchesAPrefixOfTheTeamsJobsOnly) {
  const std::string digest(64, '0');
  for (const auto& [id, team] :
       std::vector<std::pair<std::string, std::string>>{{"abcdef12-0000-4000-8000-000000000001", "gpu"},
                                                        {"abcdef12-0000-4000-8000-000000000002", "gpu"},
                                                        {"abcdef12-9999-4000-8000-000000000003", "gpu"},
                                                        {"abcdef34-0000-4000-8000-000000000004", "gpu"},
                                                        {"12345678-0000-4000-8000-000000000005", "cpu"}}) {
    Execute("INSERT INTO jobs (id, name, team, input_digest) VALUES ('" + id + "', 'j', '" + team + "', '" + digest +
            "')");
  }
  auto ids = [&](const std::string& team, const std::string& prefix, int limit) {
    absl::StatusOr<std::vector<std::string>> found = store_->FindTeamJobIds(team, prefix, limit);
    EXPECT_TRUE(found.ok()) << found.status();
    return found.ok() ? *found : std::vector<std::string>{"error"};
  };
  using Ids = std::vector<std::string>;
  EXPECT_EQ(ids("gpu", "abcdef34", 2), Ids{"abcdef34-0000-4000-8000-000000000004"});
  // Three share abcdef12: LIMIT 2 returns the first two, enough to call it ambiguous.
  EXPECT_EQ(ids("gpu", "abcdef12", 2),
            (Ids{"abcdef12-0000-4000-8000-000000000001", "abcdef12-0000-4000-8000-000000000002"}));
  EXPECT_EQ(ids("gpu", "abcdef129999", 2), Ids{"abcdef12-9999-4000-8000-000000000003"});
  EXPECT_EQ(ids("gpu", "abcdef1200004000800000000000000", 5).size(), 2u);  // 31 digits
  EXPECT_EQ(ids("gpu", "abcdef12000040008000000000000002", 2), Ids{"abcdef12-0000-4000-8000-000000000002"});
  EXPECT_EQ(ids("gpu", "abcdef56", 2), Ids{});
  EXPECT_EQ(ids("gpu", "12345678", 2), Ids{}) << "another team's job";
  EXPECT_EQ(ids("cpu", "12345678", 2), Ids{"12345678-0000-4000-8000-000000000005"});
  EXPECT_EQ(ids("cpu", "abcdef12", 2), Ids{});
  const std::vector<std::string> malformed = {"", "ABCDEF12", "abcdef12-0000", "abc'; --", std::string(33, 'a')};
  for (const std::string& bad : malformed) {
    EXPECT_EQ(store_->FindTeamJobIds("gpu", bad, 2).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST_F(JobStoreTest, CreateJobRejectsBadInput) {
  JobSpec spec;
  spec.name = "bad";
  spec.options_json = "[]";
  EXPECT_EQ(store_->CreateJob(spec, FakeInput("x")).status().code(), absl::StatusCode::kInvalidArgument);
  spec.options_json = "{}";
  ArtifactRef input = FakeInput("x");
  input.digest = "not-a-digest";
  EXPECT_EQ(store_->CreateJob(spec, input).status().code(), absl::StatusCode::kInvalidArgument);
  spec.name.clear();
  EXPECT_EQ(store_->CreateJob(spec, FakeInput("x")).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM jobs"), "0");
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM tasks"), "0");
}

TEST_F(JobStoreTest, ListJobsFiltersAndPaginates) {
  std::vector<std::string> gpu_ids;  // newest first once reversed
  for (int i = 0; i < 7; ++i) {
    JobSpec spec;
    spec.name = "job-" + std::to_string(i);
    spec.team = i % 2 == 0 ? "gpu" : "cpu";
    spec.labels = {{"parity", i % 2 == 0 ? "even" : "odd"}, {"n", std::to_string(i)}};
    auto job = store_->CreateJob(spec, FakeInput(spec.name));
    ASSERT_TRUE(job.ok()) << job.status();
    if (spec.team == "gpu") gpu_ids.insert(gpu_ids.begin(), job->id);
    clock_.Advance(std::chrono::seconds(1));
  }
  ASSERT_TRUE(store_->CancelJob(gpu_ids[0], "").ok());  // job-6

  // Team filter, pages of 2: 4 gpu jobs -> 2 pages, newest first.
  ListJobsRequest request;
  request.team = "gpu";
  request.page_size = 2;
  std::vector<std::string> seen;
  int pages = 0;
  do {
    auto page = store_->ListJobs(request);
    ASSERT_TRUE(page.ok()) << page.status();
    for (const auto& job : page->jobs) seen.push_back(job.id);
    request.page_token = page->next_page_token;
    ++pages;
  } while (!request.page_token.empty() && pages < 10);
  EXPECT_EQ(seen, gpu_ids);
  EXPECT_EQ(pages, 2);

  ListJobsRequest by_state;
  by_state.state = JobState::kCancelled;
  auto cancelled = store_->ListJobs(by_state);
  ASSERT_TRUE(cancelled.ok());
  ASSERT_EQ(cancelled->jobs.size(), 1u);
  EXPECT_EQ(cancelled->jobs[0].id, gpu_ids[0]);
  EXPECT_TRUE(cancelled->next_page_token.empty());

  ListJobsRequest by_label;
  by_label.label = std::make_pair(std::string("parity"), std::string("odd"));
  auto odd = store_->ListJobs(by_label);
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->jobs.size(), 3u);
  for (const auto& job : odd->jobs) EXPECT_EQ(job.spec.team, "cpu");

  ListJobsRequest combined;
  combined.team = "gpu";
  combined.state = JobState::kQueued;
  combined.label = std::make_pair(std::string("n"), std::string("2"));
  auto one = store_->ListJobs(combined);
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->jobs.size(), 1u);
  EXPECT_EQ(one->jobs[0].spec.name, "job-2");

  ListJobsRequest bad;
  bad.page_token = "garbage";
  EXPECT_EQ(store_->ListJobs(bad).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(JobStoreTest, WorkersRegisterAndHeartbeat) {
  WorkerInfo worker;
  worker.id = "validate-1";
  worker.roles = {TaskKind::kValidate};
  worker.capabilities_json = R"({"gfx":["gfx90a","gfx940"],"toolchain":"hipcc 5.2.3"})";
  ASSERT_TRUE(store_->RegisterWorker(worker).ok());
  clock_.Advance(std::chrono::seconds(5));
  ASSERT_TRUE(store_->WorkerHeartbeat("validate-1").ok());
  EXPECT_EQ(store_->WorkerHeartbeat("ghost").code(), absl::StatusCode::kNotFound);
  worker.roles = {TaskKind::kValidate, TaskKind::kTranslate};
  ASSERT_TRUE(store_->RegisterWorker(worker).ok());  // re-registration updates
  auto workers = store_->ListWorkers();
  ASSERT_TRUE(workers.ok());
  ASSERT_EQ(workers->size(), 1u);
  EXPECT_EQ((*workers)[0].roles.size(), 2u);
  EXPECT_EQ((*workers)[0].last_seen, clock_.Now());
  EXPECT_NE((*workers)[0].capabilities_json.find("gfx940"), std::string::npos);
}

TEST_F(JobStoreTest, ArtifactsAttachByRole) {
  const Job job = CreateTestJob("artifacts");
  ArtifactRef patch{"patch", std::string(64, 'b'), 42, "text/x-diff"};
  ASSERT_TRUE(store_->AttachArtifact(job.id, patch).ok());
  patch.digest = std::string(64, 'c');
  ASSERT_TRUE(store_->AttachArtifact(job.id, patch).ok());  // replaces the role's artifact
  auto artifacts = store_->ListArtifacts(job.id);
  ASSERT_TRUE(artifacts.ok());
  ASSERT_EQ(artifacts->size(), 2u);
  EXPECT_EQ((*artifacts)[1].role, "patch");
  EXPECT_EQ((*artifacts)[1].digest, std::string(64, 'c'));
}

TEST_F(JobStoreTest, AppendEventRejectsUnknownJobAndBadPayload) {
  const Job job = CreateTestJob("events");
  EXPECT_EQ(store_->AppendEvent(job.id, "progress", "nope").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(store_->AppendEvent("7d9c1a8e-0000-4000-8000-000000000000", "progress", "{}").ok());
}

TEST_F(JobStoreTest, EventsOfOneJobCommitInSequenceOrder) {
  // A state change holds its event (sequence N) uncommitted; an event appended meanwhile must wait for it rather
  // than commit first with a higher number: a watch resuming after that one would never see N (issue 27).
  const Job job = CreateTestJob("ordered");
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::work open(connection);
  open.exec("SET LOCAL search_path TO " + open.quote_name(schema_));
  open.exec_params("UPDATE jobs SET state = 'translating' WHERE id = $1::uuid", job.id);
  const int64_t pending = open.exec("SELECT max(seq) FROM job_events")[0][0].as<int64_t>();
  auto appended = std::async(std::launch::async, [&] { return store_->AppendEvent(job.id, "log", "{}"); });
  EXPECT_EQ(appended.wait_for(std::chrono::milliseconds(500)), std::future_status::timeout)
      << "an event committed past an uncommitted one of the same job";
  open.commit();
  absl::StatusOr<int64_t> seq = appended.get();
  ASSERT_TRUE(seq.ok()) << seq.status();
  EXPECT_GT(*seq, pending);
}

TEST_F(JobStoreTest, MigrationsAreIdempotent) {
  // The fixture already migrated this schema; running again applies nothing and keeps data.
  const Job job = CreateTestJob("keep");
  auto again = ApplyMigrations(TestDatabaseUrl(), schema_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->empty());
  auto migrations = sql::Migrations();
  ASSERT_TRUE(migrations.ok());
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM schema_migrations"), std::to_string(migrations->size()));
  EXPECT_TRUE(store_->GetJob(job.id).ok());
}

TEST(MigrationRunnerTest, ConcurrentRunnersApplyOnce) {
  const std::string schema = FreshSchemaName();
  std::vector<std::thread> threads;
  std::atomic<int> applied_total{0};
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      auto applied = ApplyMigrations(TestDatabaseUrl(), schema);
      if (!applied.ok()) {
        ++failures;
        return;
      }
      applied_total += static_cast<int>(applied->size());
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(applied_total.load(), static_cast<int>(sql::Migrations()->size()));
  pqxx::connection connection(TestDatabaseUrl());
  pqxx::work tx(connection);
  tx.exec("SET LOCAL client_min_messages TO warning");
  tx.exec("DROP SCHEMA " + tx.quote_name(schema) + " CASCADE");
  tx.commit();
}

TEST(MigrationRunnerTest, RejectsInvalidSchemaName) {
  EXPECT_EQ(ApplyMigrations(TestDatabaseUrl(), "Robert'); DROP TABLE students;--").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SqlCatalogTest, EveryNamedQueryPreparesAgainstTheSchema) {
  const std::string schema = FreshSchemaName();
  ASSERT_TRUE(ApplyMigrations(TestDatabaseUrl(), schema).ok());
  auto queries = sql::NamedQueries();
  ASSERT_TRUE(queries.ok()) << queries.status();
  EXPECT_GE(queries->size(), 30u);
  pqxx::connection connection(TestDatabaseUrl());
  {
    pqxx::nontransaction tx(connection);
    tx.exec("SET search_path TO " + tx.quote_name(schema));
  }
  for (const auto& [name, text] : *queries) {
    connection.prepare(name, text);
    EXPECT_NO_THROW(connection.prepare_now(name)) << name;
  }
  pqxx::work tx(connection);
  tx.exec("SET LOCAL client_min_messages TO warning");
  tx.exec("DROP SCHEMA " + tx.quote_name(schema) + " CASCADE");
  tx.commit();
}

TEST(SqlCatalogTest, ParsesMarkersAndRejectsDuplicates) {
  auto parsed = sql::ParseNamedQueries("x.sql", "-- header\n-- name: a\n-- doc\nSELECT 1\n\n-- name: b\nSELECT 2\n");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->at("a"), "-- doc\nSELECT 1");
  EXPECT_EQ(parsed->at("b"), "SELECT 2");
  EXPECT_FALSE(sql::ParseNamedQueries("x.sql", "-- name: a\nSELECT 1\n-- name: a\nSELECT 2\n").ok());
  EXPECT_FALSE(sql::ParseNamedQueries("x.sql", "-- name: empty\n-- only a comment\n").ok());
}

}  // namespace
}  // namespace hipforge::server::testing
