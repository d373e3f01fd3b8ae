// Job and task service logic over the in-memory JobStore (no PostgreSQL): leasing, hints, completion, cancel,
// report summaries. tests/server/rpc runs the same services over gRPC and a real PostgreSQL.
#include <filesystem>
#include <random>

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "server/job_service.h"
#include "server/orphan_collector.h"
#include "server/task_service.h"
#include "tests/common/report_fixture.h"
#include "tests/server/fakes/in_memory_artifact_store.h"
#include "tests/server/fakes/in_memory_job_store.h"

namespace hipforge::server::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ManualClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override { return now; }
  std::chrono::system_clock::time_point now = std::chrono::system_clock::time_point(std::chrono::hours(500000));
};

class ServiceLogicTest : public ::testing::Test {
 protected:
  ServiceLogicTest()
      : dir_(fs::temp_directory_path() / ("hipforge-service-" + std::to_string(std::random_device()()))),
        store_(clock_, {.default_max_attempts = 2, .retry_backoff_base = std::chrono::seconds(2)}),
        artifacts_(clock_, 1 << 20),
        tasks_(store_, artifacts_, clock_, Limits()),
        jobs_(store_, artifacts_, clock_, Limits(), dir_ / "scratch") {}
  ~ServiceLogicTest() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  static ServiceLimits Limits() {
    ServiceLimits limits;
    limits.max_lease_wait = std::chrono::milliseconds(0);
    return limits;
  }

  static Caller Qa() { return {.team = "qa", .scopes = {Scope::kRead, Scope::kCancel}, .token_id = "t1"}; }
  Job NewJob(bool validate = true) {
    JobSpec spec{.name = "demo", .team = "qa", .targets = {"gfx90a"}, .validate = validate};
    absl::StatusOr<Job> job = store_.CreateJob(spec, {"input", std::string(64, 'a'), 10, "application/x-tar"});
    EXPECT_TRUE(job.ok()) << job.status();
    return *job;
  }
  static WorkerIdentity Pool() { return {.pool = "test", .roles = {"translate", "validate"}}; }
  std::optional<LeaseGrant> Lease(const std::string& worker, TaskKind kind) {
    EXPECT_TRUE(tasks_.RegisterWorker(Pool(), {.id = worker, .roles = {kind}}, {}).ok());
    absl::StatusOr<std::optional<LeaseGrant>> grant =
        tasks_.Lease(Pool(), worker, {}, std::chrono::milliseconds(0), [] { return false; });
    EXPECT_TRUE(grant.ok()) << grant.status();
    return grant.ok() ? *grant : std::nullopt;
  }
  absl::StatusOr<CompletionOutcome> Complete(const LeaseGrant& grant, const std::string& report,
                                             report::ValidateHints hints = {}) {
    return tasks_.Complete({.lease = grant.task.lease,
                            .report = report.empty()
                                          ? std::nullopt
                                          : std::optional<report::Report>(hipforge::report::testing::ReportOf(report)),
                            .validate_hints = hints});
  }

  static std::string TranslationReport() {
    return json::parse(R"json({
      "translation": {"files": [
          {"path": "src/a.cu", "kind": "cuda-source", "status": "translated", "lines_changed": 3},
          {"path": "src/b.cuh", "kind": "header", "status": "unchanged"},
          {"path": "CMakeLists.txt", "kind": "cmake", "status": "translated", "lines_changed": 2}]},
      "findings": [
          {"rule_id": "HB503", "severity": "error", "path": "run.sh", "message": "nvidia-smi", "auto_fixed": true},
          {"rule_id": "HB404", "severity": "warning", "path": "src/a.cu", "message": "cudaMallocManaged"},
          {"rule_id": "HB101", "severity": "note", "path": "src/a.cu", "message": "32"}],
      "effort": {"engineer_hours": 1.25, "automatic_share": 0.9}})json")
        .dump();
  }

  fs::path dir_;
  ManualClock clock_;
  InMemoryJobStore store_;
  InMemoryArtifactStore artifacts_;
  TaskService tasks_;
  JobService jobs_;
};

TEST_F(ServiceLogicTest, ValidateHintsTravelFromTheTranslateCompletionToTheValidateLease) {
  const Job job = NewJob();
  std::optional<LeaseGrant> translate = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(translate.has_value());
  EXPECT_EQ(translate->task.kind, TaskKind::kTranslate);
  ASSERT_EQ(*Complete(*translate, TranslationReport(), {.managed_memory = true}), CompletionOutcome::kApplied);
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kTranslated);
  std::optional<LeaseGrant> validate = Lease("v", TaskKind::kValidate);
  ASSERT_TRUE(validate.has_value());
  EXPECT_TRUE(validate->hints.managed_memory);
  EXPECT_EQ(json::parse(validate->task.payload_json)["hints"]["managed_memory"], true);
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kValidating);
}

TEST_F(ServiceLogicTest, TheServerDoesNotReadRuleIdsForHints) {
  NewJob();
  std::optional<LeaseGrant> translate = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(translate.has_value());
  // The report has an HB404 finding, but the worker sent no hint.
  ASSERT_EQ(*Complete(*translate, TranslationReport()), CompletionOutcome::kApplied);
  std::optional<LeaseGrant> validate = Lease("v", TaskKind::kValidate);
  ASSERT_TRUE(validate.has_value());
  EXPECT_FALSE(validate->hints.managed_memory);
}

TEST_F(ServiceLogicTest, ReportSummaryCountsFixedApartFromLeftAndProgressComesFromTheReport) {
  const Job job = NewJob(/*validate=*/false);
  std::optional<LeaseGrant> translate = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(translate.has_value());
  ASSERT_EQ(*Complete(*translate, TranslationReport()), CompletionOutcome::kApplied);
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kSucceeded);  // translate-only
  absl::StatusOr<ReportSummary> summary = jobs_.GetReport(Qa(), job.id);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->fixed, 1);
  EXPECT_EQ(summary->errors, 0);  // the only error was fixed automatically
  EXPECT_EQ(summary->warnings, 1);
  EXPECT_EQ(summary->notes, 1);
  EXPECT_EQ(summary->files, 3);
  EXPECT_EQ(summary->translated, 2);
  EXPECT_DOUBLE_EQ(summary->engineer_hours, 1.25);
  ASSERT_TRUE(summary->report.translation.has_value());
  // files_total/files_translated: the CUDA sources and headers of the report (the CMakeLists is not one).
  absl::StatusOr<JobDetails> details = jobs_.GetJob(Qa(), job.id);
  ASSERT_TRUE(details.ok()) << details.status();
  EXPECT_EQ(details->files_total, 2);
  EXPECT_EQ(details->files_translated, 1);
}

TEST_F(ServiceLogicTest, LateAndDuplicateCompletionsChangeNothing) {
  const Job job = NewJob(/*validate=*/false);
  std::optional<LeaseGrant> first = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(first.has_value());
  // The lease expires and is rescued; a second worker takes the task.
  clock_.now += std::chrono::minutes(5);
  ASSERT_EQ(*store_.RescueExpiredLeases(), 1);
  std::optional<LeaseGrant> second = Lease("t2", TaskKind::kTranslate);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->task.attempt, 2);
  EXPECT_EQ(*Complete(*first, TranslationReport()), CompletionOutcome::kLeaseLost);
  EXPECT_EQ(*Complete(*second, TranslationReport()), CompletionOutcome::kApplied);
  EXPECT_EQ(*Complete(*second, TranslationReport()), CompletionOutcome::kAlreadyCompleted);
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kSucceeded);
}

TEST_F(ServiceLogicTest, FailuresRetryWithBackoffThenDeadLetterTheJob) {
  const Job job = NewJob();
  std::optional<LeaseGrant> first = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*tasks_.Fail(first->task.lease, "boom", false), FailureOutcome::kRetryScheduled);
  EXPECT_FALSE(Lease("t", TaskKind::kTranslate).has_value()) << "backoff: not due yet";
  clock_.now += std::chrono::seconds(3);
  std::optional<LeaseGrant> retry = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(retry.has_value());
  EXPECT_EQ(*tasks_.Fail(retry->task.lease, "boom again", false), FailureOutcome::kDeadLettered);
  absl::StatusOr<Job> failed = store_.GetJob(job.id);
  EXPECT_EQ(failed->state, JobState::kFailed);
  EXPECT_EQ(failed->error_message, "boom again");
}

TEST_F(ServiceLogicTest, APollThatEndedIsNotHandedATaskAndSpendsNoAttempt) {
  // A stopped worker's pending long poll leased a task 173 ms after its "stopped" line; the job waited for the lease
  // to expire and spent an attempt (issue 24, item 10).
  const Job job = NewJob();
  ASSERT_TRUE(tasks_.RegisterWorker(Pool(), {.id = "gone", .roles = {TaskKind::kTranslate}}, {}).ok());
  absl::StatusOr<std::optional<LeaseGrant>> none =
      tasks_.Lease(Pool(), "gone", {}, std::chrono::milliseconds(0), [] { return true; });
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value()) << "a poll already cancelled leased a task";
  // The poll ends while the lease is being taken: the task goes back at once.
  int checks = 0;
  absl::StatusOr<std::optional<LeaseGrant>> raced =
      tasks_.Lease(Pool(), "gone", {}, std::chrono::milliseconds(0), [&] { return ++checks > 1; });
  ASSERT_TRUE(raced.ok()) << raced.status();
  EXPECT_FALSE(raced->has_value());
  std::optional<LeaseGrant> next = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(next.has_value()) << "the task was not given back";
  EXPECT_EQ(next->task.lease.job_id, job.id);
  EXPECT_EQ(next->task.attempt, 1) << "the lease nobody received spent an attempt";
}

TEST_F(ServiceLogicTest, ARefusedFailTaskIsNotLoggedAsTheTasksFailure) {
  // A FailTask with a wrong lease token was logged as "task ... failed permanently: <caller's text>" (item 11).
  const Job job = NewJob();
  std::optional<LeaseGrant> held = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(held.has_value());
  std::ostringstream log;
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
  const server::Lease forged{
      .job_id = job.id, .task_id = held->task.lease.task_id, .token = "00000000-0000-4000-8000-000000000000"};
  absl::StatusOr<FailureOutcome> refused = tasks_.Fail(forged, "forged: your build is broken", /*permanent=*/true);
  spdlog::set_default_logger(previous);
  ASSERT_TRUE(refused.ok()) << refused.status();
  EXPECT_EQ(*refused, FailureOutcome::kLeaseLost);
  EXPECT_EQ(log.str().find("failed permanently"), std::string::npos) << log.str();
  EXPECT_EQ(log.str().find("forged"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("refused"), std::string::npos) << log.str();
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kTranslating) << "a refused FailTask changed the job";
  EXPECT_EQ(*tasks_.Fail(held->task.lease, "real", false), FailureOutcome::kRetryScheduled);
}

TEST_F(ServiceLogicTest, CancelTellsTheWorkerThroughItsHeartbeat) {
  const Job job = NewJob();
  std::optional<LeaseGrant> translate = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(translate.has_value());
  absl::StatusOr<HeartbeatOutcome> alive = tasks_.Heartbeat(translate->task.lease);
  ASSERT_TRUE(alive.ok());
  EXPECT_FALSE(alive->cancel_requested);
  ASSERT_TRUE(jobs_.Cancel(Qa(), job.id, "").ok());
  absl::StatusOr<HeartbeatOutcome> after = tasks_.Heartbeat(translate->task.lease);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_TRUE(after->cancel_requested);
  EXPECT_EQ(*Complete(*translate, TranslationReport()), CompletionOutcome::kLeaseLost);
  EXPECT_FALSE(jobs_.Cancel(Qa(), job.id, "again").ok());  // already final
}

TEST_F(ServiceLogicTest, ALeaseWithoutRolesUsesTheRegisteredOnesAndAnUnknownWorkerIsNotFound) {
  NewJob();
  ASSERT_TRUE(tasks_.RegisterWorker(Pool(), {.id = "v", .roles = {TaskKind::kValidate}}, {}).ok());
  absl::StatusOr<std::optional<LeaseGrant>> none =
      tasks_.Lease(Pool(), "v", {}, std::chrono::milliseconds(0), [] { return false; });
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value()) << "a validate worker does not get the translate task";
  absl::StatusOr<std::optional<LeaseGrant>> unknown =
      tasks_.Lease(Pool(), "nobody", {}, std::chrono::milliseconds(0), [] { return false; });
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
}

// The fake keeps submit request ids as PostgreSQL does (store.JobStoreTest.CreateJobWithARequestIdItAlreadyHas...):
// a team's repeated id is its first job, with one translate task; another team's is its own.
TEST_F(ServiceLogicTest, TheFakeStoreAnswersARepeatedSubmitRequestIdWithItsJob) {
  JobSpec spec{.name = "again", .team = "qa", .request_id = "ci-7"};
  const ArtifactRef input{"input", std::string(64, 'a'), 10, "application/x-tar"};
  absl::StatusOr<Job> first = store_.CreateJob(spec, input);
  absl::StatusOr<Job> again = store_.CreateJob(spec, {"input", std::string(64, 'b'), 10, "application/x-tar"});
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(again->id, first->id);
  EXPECT_EQ(again->input_digest, input.digest);
  EXPECT_EQ(store_.ListTasks(first->id)->size(), 1u);
  spec.team = "ops";
  EXPECT_NE(store_.CreateJob(spec, input)->id, first->id);
}

TEST_F(ServiceLogicTest, AnotherTeamsJobIsNotFoundLikeAnAbsentOne) {
  const Job job = NewJob(/*validate=*/false);
  const Caller other{.team = "ops", .scopes = {Scope::kRead, Scope::kCancel}, .token_id = "t2"};
  absl::StatusOr<JobDetails> seen = jobs_.GetJob(other, job.id);
  ASSERT_FALSE(seen.ok());
  EXPECT_EQ(seen.status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<JobDetails> absent = jobs_.GetJob(other, "00000000-0000-4000-8000-999999999999");
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jobs_.Cancel(other, job.id, "no").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kQueued) << "another team's cancel changed nothing";
}

// Short ids as the dashboard and `migrate-cli list` show them. The fake's ids all start 00000000-0000-4000-8000-,
// so an 8-character prefix is unique only while one job of the team has it.
TEST_F(ServiceLogicTest, AShortJobIdNamesTheOneJobOfTheCallersTeamThatStartsWithIt) {
  const Caller ops{.team = "ops", .scopes = {Scope::kRead, Scope::kCancel}, .token_id = "t2"};
  const Job theirs =
      store_.CreateJob({.name = "theirs", .team = "ops"}, {"input", std::string(64, 'a'), 10, ""}).value();
  const Job job = NewJob(/*validate=*/false);
  ASSERT_EQ(job.id.substr(0, 8), theirs.id.substr(0, 8));
  // Unique within qa although ops has a job with the same prefix.
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), job.id.substr(0, 8)).value_or("?"), job.id);
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "00000000-00").value_or("?"), job.id) << "dashes where the id has them";
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "00000000000040").value_or("?"), job.id) << "or none";
  EXPECT_EQ(jobs_.GetJob(Qa(), "00000000")->job.id, job.id);
  absl::StatusOr<ReportSummary> report = jobs_.GetReport(Qa(), "00000000");
  EXPECT_EQ(report.status().code(), absl::StatusCode::kNotFound) << "no report yet, but the job was found";
  EXPECT_NE(report.status().message().find(job.id), std::string::npos) << report.status();
  // A full id is taken as it is, even one of no job.
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), job.id).value_or("?"), job.id);
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "ffffffff-0000-4000-8000-000000000000").value_or("?"),
            "ffffffff-0000-4000-8000-000000000000");
  // Unknown, another team's only, malformed: NotFound as for a full id. Too short: InvalidArgument.
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "ffffffff").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jobs_.ResolveJobId(ops, theirs.id.substr(0, 8)).value_or("?"), theirs.id);
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "0000000-00").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "../../etc").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(jobs_.ResolveJobId(Qa(), "0000000").status().code(), absl::StatusCode::kInvalidArgument);
  // A second qa job makes the prefix ambiguous: InvalidArgument naming both, and nothing is cancelled.
  const Job second = NewJob(/*validate=*/false);
  absl::StatusOr<Job> cancelled = jobs_.Cancel(Qa(), "00000000", "");
  ASSERT_EQ(cancelled.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(cancelled.status().message().find(job.id), std::string::npos) << cancelled.status();
  EXPECT_NE(cancelled.status().message().find(second.id), std::string::npos) << cancelled.status();
  EXPECT_EQ(store_.GetJob(job.id)->state, JobState::kQueued);
  EXPECT_EQ(store_.GetJob(second.id)->state, JobState::kQueued);
}

// Reads a whole download the way the gRPC handlers do.
absl::Status Drain(ArtifactReader& reader, std::string* bytes) {
  for (;;) {
    absl::StatusOr<std::string> chunk = reader.Read(7);
    if (!chunk.ok()) return chunk.status();
    if (chunk->empty()) return absl::OkStatus();
    *bytes += *chunk;
  }
}

TEST_F(ServiceLogicTest, AWorkerGetsTheInputItWasPromisedOrDataLoss) {
  const std::string upload = "the uploaded archive";
  absl::StatusOr<StoredArtifact> stored = artifacts_.Put(upload);
  ASSERT_TRUE(stored.ok());
  JobSpec spec{.name = "demo", .team = "qa", .validate = false};
  ASSERT_TRUE(store_.CreateJob(spec, {"input", stored->digest, stored->size_bytes, "application/x-tar"}).ok());
  std::optional<LeaseGrant> grant = Lease("t", TaskKind::kTranslate);
  ASSERT_TRUE(grant.has_value());
  const LeasedTask& task = grant->task;
  absl::StatusOr<InputDownload> input = tasks_.OpenInput(task.lease);
  ASSERT_TRUE(input.ok()) << input.status();
  std::string bytes;
  ASSERT_TRUE(Drain(*input->reader, &bytes).ok());
  EXPECT_EQ(bytes, upload);
  // The store hands back other bytes (a damaged file, chunk or disk): the download fails instead of serving them.
  ASSERT_TRUE(artifacts_.Damage(stored->digest));
  input = tasks_.OpenInput(task.lease);
  ASSERT_TRUE(input.ok()) << input.status();
  bytes.clear();
  EXPECT_EQ(Drain(*input->reader, &bytes).code(), absl::StatusCode::kDataLoss);
  EXPECT_LT(bytes.size(), upload.size()) << "the last piece, which completes the digest, is never handed out";
}

TEST_F(ServiceLogicTest, OrphanCollectionKeepsWhatJobsReferToAndWhatIsYoung) {
  absl::StatusOr<StoredArtifact> input = artifacts_.Put("input of a job");
  absl::StatusOr<StoredArtifact> orphan = artifacts_.Put("upload whose job was never created");
  ASSERT_TRUE(input.ok() && orphan.ok());
  JobSpec spec{.name = "demo", .team = "qa", .validate = false};
  ASSERT_TRUE(store_.CreateJob(spec, {"input", input->digest, input->size_bytes, "application/x-tar"}).ok());
  EXPECT_EQ(*CollectOrphanArtifacts(store_, artifacts_, clock_, std::chrono::hours(1)), 0);
  clock_.now += std::chrono::hours(2);
  EXPECT_EQ(*CollectOrphanArtifacts(store_, artifacts_, clock_, std::chrono::hours(1)), 1);
  EXPECT_EQ(artifacts_.Open(orphan->digest).status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(artifacts_.Open(input->digest).ok());
}

}  // namespace
}  // namespace hipforge::server::testing
