// WorkerService RPCs: registration, long-poll leasing, heartbeats, inputs, progress, and the
// idempotence of completion (duplicate and late completions change nothing).
#include <thread>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "tests/common/report_fixture.h"
#include "tests/common/report_wire.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"

namespace hipforge::server::testing {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

class WorkerServiceTest : public ServerTest {
 protected:
  void Configure(ServerConfig& config) override {
    config.limits.lease_duration = 800ms;
    config.rescue_interval = 100ms;
    config.max_attempts = 2;
  }

  v1::Job SubmitGood(const std::string& name) {
    SubmitOutcome outcome = SubmitArchive(*api_, TestSpec(name), SmallCudaRepoArchive());
    EXPECT_TRUE(outcome.status.ok()) << outcome.status.error_message();
    return outcome.job;
  }

  v1::Report GetReport(const std::string& job_id, grpc::Status* status = nullptr) {
    grpc::ClientContext context;
    v1::GetReportRequest request;
    request.set_job_id(job_id);
    v1::Report report;
    grpc::Status result = api_->GetReport(&context, request, &report);
    if (status != nullptr) *status = result;
    return report;
  }

  // A completion stream with only its header written (the task's lease, ok, `report`): what a worker has sent when
  // it dies before its artifacts, or what the server refuses before reading them.
  std::unique_ptr<grpc::ClientWriter<v1::CompleteRequest>> WriteHeader(grpc::ClientContext& context,
                                                                       v1::CompleteResponse& response,
                                                                       const v1::Task& task,
                                                                       const v1::ReportDocument& report) {
    auto writer = workers_->Complete(&context, &response);
    v1::CompleteRequest message;
    v1::CompleteHeader* header = message.mutable_header();
    *header->mutable_lease() = task.lease();
    header->mutable_result()->set_ok(true);
    *header->mutable_report() = report;
    EXPECT_TRUE(writer->Write(message));
    return writer;
  }

  // Waits, without heartbeats, until the server has rescued the task's expired lease. Checking is a
  // heartbeat, which extends a lease still held, so each check is preceded by a full lease period.
  void WaitForLeaseLoss(const v1::Task& task) {
    for (int i = 0; i < 10; ++i) {
      std::this_thread::sleep_for(1500ms);
      if (Heartbeat(*workers_, task).error_code() == grpc::StatusCode::FAILED_PRECONDITION) return;
    }
    FAIL() << "lease of task " << task.lease().task_id() << " was never lost";
  }
};

TEST_F(WorkerServiceTest, RegisterValidatesRequest) {
  EXPECT_TRUE(Register(*workers_, "w1").ok());
  EXPECT_EQ(Register(*workers_, "").error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  grpc::ClientContext context;
  v1::RegisterWorkerRequest request;
  request.set_worker_id("no-roles");
  v1::RegisterWorkerResponse response;
  EXPECT_EQ(workers_->RegisterWorker(&context, request, &response).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(WorkerServiceTest, RegistrationTellsLeaseDuration) {
  grpc::ClientContext context;
  v1::RegisterWorkerRequest request;
  request.set_worker_id("w1");
  request.add_roles(v1::TASK_ROLE_TRANSLATE);
  v1::RegisterWorkerResponse response;
  ASSERT_TRUE(workers_->RegisterWorker(&context, request, &response).ok());
  EXPECT_EQ(response.lease_duration_ms(), 800);
  EXPECT_GT(response.chunk_bytes(), 0);
}

TEST_F(WorkerServiceTest, LeaseBeforeRegisterIsNotFound) {
  grpc::Status status;
  EXPECT_FALSE(Lease(*workers_, "stranger", 100, &status).has_value());
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(WorkerServiceTest, LongPollEndsEmptyWithoutWork) {
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  grpc::Status status;
  EXPECT_FALSE(Lease(*workers_, "w1", 300, &status).has_value());
  EXPECT_TRUE(status.ok()) << status.error_message();
}

TEST_F(WorkerServiceTest, LongPollWakesWhenAJobArrives) {
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task;
  std::thread poller([&] { task = Lease(*workers_, "w1", 4000); });
  std::this_thread::sleep_for(300ms);
  v1::Job job = SubmitGood("wake");
  poller.join();
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->lease().job_id(), job.id());
  EXPECT_EQ(task->role(), v1::TASK_ROLE_TRANSLATE);
  EXPECT_EQ(task->attempt(), 1);
  EXPECT_EQ(task->spec().name(), "wake");
  EXPECT_FALSE(task->lease().token().empty());
}

TEST_F(WorkerServiceTest, DownloadInputReturnsTheSubmittedArchive) {
  v1::Job job = SubmitGood("download");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  std::string data;
  v1::ArtifactInfo info;
  ASSERT_TRUE(Download(*workers_, *task, &data, &info).ok());
  EXPECT_EQ(data, SmallCudaRepoArchive());
  EXPECT_EQ(info.sha256(), Sha256Hex(data));

  v1::Task wrong = *task;
  wrong.mutable_lease()->set_token("not-the-token");
  EXPECT_EQ(Download(*workers_, wrong, &data).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(WorkerServiceTest, HeartbeatKeepsTheLeaseAndFailsOnceLost) {
  SubmitGood("heartbeat");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  // Heartbeats every ~quarter lease keep the task ours well past the lease duration.
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(Heartbeat(*workers_, *task).ok()) << "heartbeat " << i;
    std::this_thread::sleep_for(200ms);
  }
  WaitForLeaseLoss(*task);
  v1::Task wrong = *task;
  wrong.mutable_lease()->set_token("forged");
  EXPECT_EQ(Heartbeat(*workers_, wrong).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(WorkerServiceTest, DuplicateCompletionIsIgnored) {
  v1::Job job = SubmitGood("duplicate");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  v1::CompleteResponse first, second;
  ASSERT_TRUE(
      Complete(*workers_, *task, TranslationReport(job.id(), 2), {{v1::ARTIFACT_KIND_PATCH, "patch-1"}}, &first).ok());
  EXPECT_TRUE(first.accepted());
  ASSERT_TRUE(
      Complete(*workers_, *task, TranslationReport(job.id(), 7), {{v1::ARTIFACT_KIND_PATCH, "patch-2"}}, &second).ok());
  EXPECT_FALSE(second.accepted());

  v1::Report report = GetReport(job.id());
  EXPECT_EQ(report.translation().files(), 2);
  std::string data;
  v1::ArtifactInfo info;
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &data, &info).ok());
  EXPECT_EQ(data, "patch-1");
}

// A report of the wrong shape (an enum value this server does not know) is refused where it arrives, naming the
// field; nothing changes and the lease still holds.
TEST_F(WorkerServiceTest, AReportOfTheWrongShapeIsRefusedAndNothingChanges) {
  v1::Job job = SubmitGood("wrong-shape");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  grpc::ClientContext context;
  v1::CompleteResponse response;
  v1::ReportDocument wrong;
  wrong.mutable_findings()->add_items()->set_severity(static_cast<v1::Severity>(99));
  auto writer = WriteHeader(context, response, *task, wrong);
  writer->WritesDone();
  const grpc::Status status = writer->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("$.findings[0].severity")) << status.error_message();
  EXPECT_EQ(WaitForJob(job.id(), [](const v1::Job&) { return true; }).state(), v1::JOB_STATE_TRANSLATING);
  v1::CompleteResponse whole;
  ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(job.id(), 2), {}, &whole).ok());
  EXPECT_TRUE(whole.accepted()) << "the lease still holds";
}

TEST_F(WorkerServiceTest, ACompletionStreamTheWorkerAbandonsIsNotApplied) {
  v1::Job job = SubmitGood("abandoned-completion");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  {
    // A worker killed after sending the header: its artifacts never come.
    grpc::ClientContext context;
    v1::CompleteResponse response;
    auto writer =
        WriteHeader(context, response, *task,
                    hipforge::report::ToProto(hipforge::report::testing::ReportOf(TranslationReport(job.id(), 9))));
    std::this_thread::sleep_for(200ms);  // the server has read the header and waits for the artifacts
    context.TryCancel();
    EXPECT_FALSE(writer->Finish().ok());
  }
  // The lease is still the worker's (heartbeats keep it past the 800 ms lease while the server sees the cancel)...
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(200ms);
    ASSERT_TRUE(Heartbeat(*workers_, *task).ok()) << "the abandoned stream ended the lease";
  }
  // ...and a whole completion after it is the one applied.
  v1::CompleteResponse whole;
  ASSERT_TRUE(
      Complete(*workers_, *task, TranslationReport(job.id(), 2), {{v1::ARTIFACT_KIND_PATCH, "patch"}}, &whole).ok());
  EXPECT_TRUE(whole.accepted());
  EXPECT_EQ(GetReport(job.id()).translation().files(), 2);
}

// An artifact that does not arrive as its info says (bytes lost on the way, a file that changed while the worker read
// it) makes the whole completion refused: nothing of it is applied, the lease stays for a retry, and a whole
// completion after it is the one applied.
TEST_F(WorkerServiceTest, ACompletionWhoseArtifactIsShortOrCorruptIsRefusedAndNothingIsApplied) {
  v1::Job job = SubmitGood("bad-artifact");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  const std::string patch(5000, 'p');
  const std::string half = patch.substr(0, 2500);
  struct Case {
    std::string name;
    v1::ArtifactInfo info;
    std::string sent;
  };
  std::vector<Case> cases = {
      // The hash of what arrived, but the info's size is the whole file's: only the size shows the loss.
      {"shorter than its size", InfoOf(v1::ARTIFACT_KIND_PATCH, half), half},
      {"a hash that differs", InfoOf(v1::ARTIFACT_KIND_PATCH, patch), patch},
      // What the worker sends for a file it could not read to the end: hashed and sized whole, half streamed.
      {"truncated", InfoOf(v1::ARTIFACT_KIND_PATCH, patch), half},
  };
  cases[0].info.set_size_bytes(static_cast<int64_t>(patch.size()));
  cases[1].info.set_sha256(Sha256Hex("another patch"));
  for (const Case& bad : cases) {
    SCOPED_TRACE(bad.name);
    v1::CompleteResponse response;
    grpc::Status status =
        CompleteSending(*workers_, *task, TranslationReport(job.id(), 9),
                        {{InfoOf(v1::ARTIFACT_KIND_TRANSLATED_TREE, "tree"), "tree"}, {bad.info, bad.sent}}, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::DATA_LOSS) << status.error_message();
    EXPECT_FALSE(response.accepted());
    ASSERT_TRUE(Heartbeat(*workers_, *task).ok()) << "the refused completion ended the lease";
    v1::Report report = GetReport(job.id());
    EXPECT_NE(report.state(), v1::JOB_STATE_SUCCEEDED);
    EXPECT_EQ(report.translation().files(), 0) << "the refused completion's report was applied";
  }
  v1::CompleteResponse whole;
  ASSERT_TRUE(
      Complete(*workers_, *task, TranslationReport(job.id(), 2), {{v1::ARTIFACT_KIND_PATCH, patch}}, &whole).ok());
  EXPECT_TRUE(whole.accepted());
  EXPECT_EQ(GetReport(job.id()).translation().files(), 2);
  std::string data;
  v1::ArtifactInfo info;
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &data, &info).ok());
  EXPECT_EQ(data, patch);
}

TEST_F(WorkerServiceTest, LateCompletionFromAWorkerThatLostItsLeaseIsIgnored) {
  v1::Job job = SubmitGood("late");
  ASSERT_TRUE(Register(*workers_, "slow").ok());
  ASSERT_TRUE(Register(*workers_, "fast").ok());
  std::optional<v1::Task> slow = Lease(*workers_, "slow", 2000);
  ASSERT_TRUE(slow.has_value());
  WaitForLeaseLoss(*slow);

  std::optional<v1::Task> fast = Lease(*workers_, "fast", 3000);
  ASSERT_TRUE(fast.has_value());
  EXPECT_EQ(fast->lease().task_id(), slow->lease().task_id());
  EXPECT_EQ(fast->attempt(), 2);
  EXPECT_NE(fast->lease().token(), slow->lease().token());

  // The slow worker's progress and completion arrive late and change nothing.
  {
    grpc::ClientContext context;
    v1::ReportProgressRequest request;
    *request.mutable_lease() = slow->lease();
    request.add_events()->mutable_log()->set_message("late");
    v1::ReportProgressResponse response;
    ASSERT_TRUE(workers_->ReportProgress(&context, request, &response).ok());
    EXPECT_FALSE(response.accepted());
  }
  v1::CompleteResponse late;
  ASSERT_TRUE(
      Complete(*workers_, *slow, TranslationReport(job.id(), 5), {{v1::ARTIFACT_KIND_PATCH, "slow"}}, &late).ok());
  EXPECT_FALSE(late.accepted());

  v1::CompleteResponse on_time;
  ASSERT_TRUE(
      Complete(*workers_, *fast, TranslationReport(job.id(), 2), {{v1::ARTIFACT_KIND_PATCH, "fast"}}, &on_time).ok());
  EXPECT_TRUE(on_time.accepted());
  // And the late one once more, after the job finished.
  ASSERT_TRUE(
      Complete(*workers_, *slow, TranslationReport(job.id(), 5), {{v1::ARTIFACT_KIND_PATCH, "slow"}}, &late).ok());
  EXPECT_FALSE(late.accepted());

  v1::Report report = GetReport(job.id());
  EXPECT_EQ(report.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(report.translation().files(), 2);
  EXPECT_EQ(hipforge::report::testing::WireJson(report.document())["translation"]["files"].size(), 2u);
  std::string data;
  v1::ArtifactInfo info;
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &data, &info).ok());
  EXPECT_EQ(data, "fast");
}

TEST_F(WorkerServiceTest, FailTaskRetriesThenFailsTheJob) {
  v1::Job job = SubmitGood("fails");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  for (int attempt = 1; attempt <= 2; ++attempt) {
    std::optional<v1::Task> task = Lease(*workers_, "w1", 5000);  // covers the retry backoff
    ASSERT_TRUE(task.has_value()) << "attempt " << attempt;
    EXPECT_EQ(task->attempt(), attempt);
    grpc::ClientContext context;
    v1::FailTaskRequest request;
    *request.mutable_lease() = task->lease();
    request.set_error("clang crashed on attempt " + std::to_string(attempt));
    v1::FailTaskResponse response;
    ASSERT_TRUE(workers_->FailTask(&context, request, &response).ok());
    EXPECT_TRUE(response.accepted());
  }
  v1::Job failed = WaitForJob(
      job.id(), [](const v1::Job& j) { return IsFinal(j.state()); }, 10s);
  EXPECT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_THAT(failed.error(), HasSubstr("clang crashed"));
}

TEST_F(WorkerServiceTest, PermanentFailureFailsTheJobAtOnce) {
  v1::Job job = SubmitGood("permanent");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  grpc::ClientContext context;
  v1::FailTaskRequest request;
  *request.mutable_lease() = task->lease();
  request.set_error("input archive is unusable");
  request.set_permanent(true);
  v1::FailTaskResponse response;
  ASSERT_TRUE(workers_->FailTask(&context, request, &response).ok());
  EXPECT_TRUE(response.accepted());
  v1::Job failed = WaitForJob(
      job.id(), [](const v1::Job& j) { return IsFinal(j.state()); }, 5s);
  EXPECT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_THAT(failed.error(), HasSubstr("unusable"));
}

TEST_F(WorkerServiceTest, QueuedJobsSurviveAServerRestart) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(SubmitGood("restart" + std::to_string(i)).id());
  RestartServer();
  std::set<std::string> leased;
  ASSERT_TRUE(Register(*workers_, "after-restart").ok());
  for (int i = 0; i < 3; ++i) {
    std::optional<v1::Task> task = Lease(*workers_, "after-restart", 3000);
    ASSERT_TRUE(task.has_value());
    leased.insert(task->lease().job_id());
    v1::CompleteResponse response;
    ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(task->lease().job_id(), 1), {}, &response).ok());
    EXPECT_TRUE(response.accepted());
  }
  EXPECT_EQ(leased, std::set<std::string>(ids.begin(), ids.end()));
}

// Translate completes with the given report; returns the validate task the "v" worker then leases.
std::optional<v1::Task> TranslateThenLeaseValidate(v1::WorkerService::Stub& workers, const v1::Task& translate,
                                                   const std::string& report, const std::string& tree,
                                                   bool managed_memory = false) {
  v1::CompleteResponse response;
  EXPECT_TRUE(Complete(workers, translate, report, {{v1::ARTIFACT_KIND_TRANSLATED_TREE, tree}}, &response,
                       /*ok=*/true, managed_memory)
                  .ok());
  EXPECT_TRUE(response.accepted());
  EXPECT_TRUE(Register(workers, "v", v1::TASK_ROLE_VALIDATE).ok());
  return Lease(workers, "v", 3000);
}

// Submits a validating job, completes its translate task with a plain report and leases its validate task.
std::optional<v1::Task> ReachValidate(v1::MigrationService::Stub& api, v1::WorkerService::Stub& workers,
                                      const std::string& name) {
  SubmitOutcome submitted = SubmitArchive(api, TestSpec(name, "qa", /*translate_only=*/false), SmallCudaRepoArchive());
  EXPECT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  EXPECT_TRUE(Register(workers, "t").ok());
  std::optional<v1::Task> translate = Lease(workers, "t", 2000);
  if (!translate) return std::nullopt;
  return TranslateThenLeaseValidate(workers, *translate, TranslationReport(translate->lease().job_id(), 1), "tree");
}

TEST_F(WorkerServiceTest, ValidateTaskGetsTheOriginalRepositoryAndTheTranslateStepsHints) {
  SubmitOutcome submitted =
      SubmitArchive(*api_, TestSpec("validate-inputs", "qa", /*translate_only=*/false), SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  ASSERT_TRUE(Register(*workers_, "t").ok());
  std::optional<v1::Task> translate = Lease(*workers_, "t", 2000);
  ASSERT_TRUE(translate.has_value());
  EXPECT_FALSE(translate->managed_memory_found());
  // The hint travels from the translate completion to the validate task's payload (the worker decides it).
  const std::string tree = "translated-tree-bytes";
  std::optional<v1::Task> validate = TranslateThenLeaseValidate(
      *workers_, *translate, TranslationReport(translate->lease().job_id(), 1), tree, /*managed_memory=*/true);
  ASSERT_TRUE(validate.has_value());
  EXPECT_EQ(validate->role(), v1::TASK_ROLE_VALIDATE);
  EXPECT_TRUE(validate->managed_memory_found());

  std::string data;
  ASSERT_TRUE(Download(*workers_, *validate, &data).ok());
  EXPECT_EQ(data, tree);  // the task's own input: the translated tree
  grpc::ClientContext context;
  v1::DownloadInputRequest request;
  *request.mutable_lease() = validate->lease();
  request.set_original(true);
  auto reader = workers_->DownloadInput(&context, request);
  v1::ArtifactChunk chunk;
  std::string original;
  while (reader->Read(&chunk)) original += chunk.data();
  ASSERT_TRUE(reader->Finish().ok());
  EXPECT_EQ(original, SmallCudaRepoArchive());
}

TEST_F(WorkerServiceTest, TheServerInterpretsNoRuleIdsOnlyTheWorkersHint) {
  // An HB404 finding in the report without the translate worker's hint: the server does not read findings.
  SubmitOutcome submitted =
      SubmitArchive(*api_, TestSpec("no-managed", "qa", /*translate_only=*/false), SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok()) << submitted.status.error_message();
  ASSERT_TRUE(Register(*workers_, "t").ok());
  std::optional<v1::Task> translate = Lease(*workers_, "t", 2000);
  ASSERT_TRUE(translate.has_value());
  nlohmann::json report = nlohmann::json::parse(TranslationReport(translate->lease().job_id(), 1));
  report["findings"].push_back({{"rule_id", "HB404"},
                                {"severity", "warning"},
                                {"path", "src/f0.cu"},
                                {"line", 9},
                                {"column", 3},
                                {"message", "cudaMallocManaged"},
                                {"fix", ""},
                                {"auto_fixed", false}});
  std::optional<v1::Task> validate = TranslateThenLeaseValidate(*workers_, *translate, report.dump(), "tree");
  ASSERT_TRUE(validate.has_value());
  EXPECT_FALSE(validate->managed_memory_found());
}

TEST_F(WorkerServiceTest, AFailedValidationFailsTheJobAndKeepsTheReport) {
  std::optional<v1::Task> validate = ReachValidate(*api_, *workers_, "build-fails");
  ASSERT_TRUE(validate.has_value());
  const nlohmann::json builds = {{"builds",
                                  {{{"requested_arch", "gfx90a"},
                                    {"arch", "gfx90a"},
                                    {"toolchain", "hipcc 5.2"},
                                    {"ok", false},
                                    {"duration_ms", 1200},
                                    {"errors", nlohmann::json::array()},
                                    {"kernels", nlohmann::json::array()},
                                    {"log_excerpt", "clang: error: unsupported option '--use_fast_math'\n"}},
                                   {{"requested_arch", "gfx942"},
                                    {"arch", "gfx940"},
                                    {"toolchain", "hipcc 5.2"},
                                    {"ok", true},
                                    {"duration_ms", 900},
                                    {"errors", nlohmann::json::array()},
                                    {"kernels", nlohmann::json::array()},
                                    {"note", "gfx942 not supported; built the nearest target gfx940"}}}}};
  v1::CompleteResponse response;
  ASSERT_TRUE(Complete(*workers_, *validate, builds.dump(), {}, &response, /*ok=*/false).ok());
  EXPECT_TRUE(response.accepted());
  v1::Job job = WaitForJob(
      validate->lease().job_id(), [](const v1::Job& j) { return IsFinal(j.state()); }, 5s);
  EXPECT_EQ(job.state(), v1::JOB_STATE_FAILED);

  v1::Report report = GetReport(validate->lease().job_id());
  EXPECT_EQ(report.state(), v1::JOB_STATE_FAILED);
  const nlohmann::json stored = hipforge::report::testing::WireJson(report.document());
  ASSERT_EQ(stored["builds"].size(), 2u);
  EXPECT_FALSE(stored["builds"][0]["ok"].get<bool>());
  // The failing step's words and the arch note survive the round trip through the report tables.
  EXPECT_THAT(stored["builds"][0].value("log_excerpt", ""), HasSubstr("--use_fast_math"));
  EXPECT_FALSE(stored["builds"][0].contains("note"));
  EXPECT_THAT(stored["builds"][1].value("note", ""), HasSubstr("gfx940"));
  EXPECT_FALSE(stored["builds"][1].contains("log_excerpt"));
  EXPECT_EQ(stored["translation"]["files"].size(), 1u);  // the translate step's sections stay
}

TEST_F(WorkerServiceTest, HeartbeatAfterCancelTellsTheWorkerToStop) {
  v1::Job job = SubmitGood("cancel-heartbeat");
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  auto heartbeat = [&](v1::HeartbeatResponse* response) {
    grpc::ClientContext context;
    v1::HeartbeatRequest request;
    *request.mutable_lease() = task->lease();
    request.mutable_lease()->set_worker_id("w1");
    return workers_->Heartbeat(&context, request, response);
  };
  v1::HeartbeatResponse response;
  ASSERT_TRUE(heartbeat(&response).ok());
  EXPECT_FALSE(response.cancel_requested());

  grpc::ClientContext cancel_context;
  v1::CancelJobRequest cancel;
  cancel.set_job_id(job.id());
  cancel.set_reason("changed my mind");
  v1::Job cancelled;
  ASSERT_TRUE(api_->CancelJob(&cancel_context, cancel, &cancelled).ok());

  response.Clear();
  grpc::Status status = heartbeat(&response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_TRUE(response.cancel_requested());
  // Completing anyway changes nothing: the task was cancelled with its job.
  v1::CompleteResponse complete;
  ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(job.id(), 1), {}, &complete).ok());
  EXPECT_FALSE(complete.accepted());
}

}  // namespace
}  // namespace hipforge::server::testing
