// MigrationService RPCs over real gRPC and PostgreSQL; the worker side is played with raw calls.
#include <thread>

#include <gmock/gmock.h>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "tests/common/report_wire.h"
#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"

namespace hipforge::server::testing {
namespace {

using ::testing::HasSubstr;

class MigrationServiceTest : public ServerTest {
 protected:
  v1::Job SubmitGood(const std::string& name, const std::string& team = "qa", bool translate_only = true) {
    SubmitOutcome outcome = SubmitArchive(ApiFor(team), TestSpec(name, team, translate_only), SmallCudaRepoArchive());
    EXPECT_TRUE(outcome.status.ok()) << outcome.status.error_message();
    return outcome.job;
  }

  // Leases the next translate task and completes it with a report and both artifacts.
  v1::Task TranslateNext(const std::string& tree, const std::string& patch, int files = 2) {
    EXPECT_TRUE(Register(*workers_, "w1").ok());
    std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
    EXPECT_TRUE(task.has_value());
    if (!task) return {};
    v1::CompleteResponse response;
    grpc::Status status =
        Complete(*workers_, *task, TranslationReport(task->lease().job_id(), files),
                 {{v1::ARTIFACT_KIND_TRANSLATED_TREE, tree}, {v1::ARTIFACT_KIND_PATCH, patch}}, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(response.accepted());
    return *task;
  }
};

TEST_F(MigrationServiceTest, SubmitCreatesQueuedJobWithSpec) {
  v1::Job job = SubmitGood("first", "gpu-team");
  EXPECT_FALSE(job.id().empty());
  EXPECT_EQ(job.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(job.spec().name(), "first");
  EXPECT_EQ(job.spec().team(), "gpu-team");
  EXPECT_EQ(job.spec().labels().at("suite"), "rpc");
  ASSERT_EQ(job.spec().targets_size(), 1);
  EXPECT_EQ(job.spec().targets(0), "gfx90a");
  EXPECT_TRUE(job.spec().options().translate_only());
}

TEST_F(MigrationServiceTest, GetJobReportsInputAndNotFound) {
  v1::Job job = SubmitGood("get");
  grpc::ClientContext context;
  v1::GetJobRequest request;
  request.set_job_id(job.id());
  v1::Job got;
  ASSERT_TRUE(api_->GetJob(&context, request, &got).ok());
  EXPECT_EQ(got.id(), job.id());
  EXPECT_EQ(got.input_bytes(), static_cast<int64_t>(SmallCudaRepoArchive().size()));
  EXPECT_EQ(got.input_files(), 3);  // src/scale.cu, src/scale.cuh, CMakeLists.txt: counted as the upload is checked
  EXPECT_EQ(job.input_files(), 3);  // Submit answers it too

  grpc::ClientContext missing_context;
  request.set_job_id("00000000-0000-0000-0000-000000000000");
  EXPECT_EQ(api_->GetJob(&missing_context, request, &got).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(MigrationServiceTest, ListJobsFiltersAndPages) {
  for (int i = 0; i < 5; ++i) SubmitGood("a" + std::to_string(i), "alpha");
  SubmitGood("b0", "beta");
  v1::ListJobsRequest request;
  request.set_team("alpha");
  request.set_page_size(2);
  std::set<std::string> seen;
  int pages = 0;
  do {
    grpc::ClientContext context;
    v1::ListJobsResponse response;
    ASSERT_TRUE(ApiFor("alpha").ListJobs(&context, request, &response).ok());
    for (const v1::Job& job : response.jobs()) {
      EXPECT_EQ(job.spec().team(), "alpha");
      seen.insert(job.id());
    }
    request.set_page_token(response.next_page_token());
    ++pages;
  } while (!request.page_token().empty() && pages < 10);
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(pages, 3);

  v1::ListJobsRequest by_label;
  by_label.set_label("suite=rpc");
  by_label.set_state(v1::JOB_STATE_QUEUED);
  grpc::ClientContext context;
  v1::ListJobsResponse response;
  // Tenancy: without a team filter a token lists its own team's jobs only (5 of the 6).
  ASSERT_TRUE(ApiFor("alpha").ListJobs(&context, by_label, &response).ok());
  EXPECT_EQ(response.jobs_size(), 5);

  by_label.set_label("suite=other");
  grpc::ClientContext other_context;
  ASSERT_TRUE(ApiFor("alpha").ListJobs(&other_context, by_label, &response).ok());
  EXPECT_EQ(response.jobs_size(), 0);

  by_label.set_label("no-equals-sign");
  grpc::ClientContext bad_context;
  EXPECT_EQ(ApiFor("alpha").ListJobs(&bad_context, by_label, &response).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(MigrationServiceTest, CancelJobAndCancelAgainFails) {
  v1::Job job = SubmitGood("cancel-me");
  v1::CancelJobRequest request;
  request.set_job_id(job.id());
  request.set_reason("changed my mind");
  v1::Job cancelled;
  {
    grpc::ClientContext context;
    ASSERT_TRUE(api_->CancelJob(&context, request, &cancelled).ok());
  }
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
  grpc::ClientContext context;
  EXPECT_EQ(api_->CancelJob(&context, request, &cancelled).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  // A cancelled job's task is not leasable.
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  EXPECT_FALSE(Lease(*workers_, "w1", 200).has_value());
}

TEST_F(MigrationServiceTest, ReportAndArtifactsAreNotFoundBeforeTranslation) {
  v1::Job job = SubmitGood("early");
  grpc::ClientContext context;
  v1::GetReportRequest request;
  request.set_job_id(job.id());
  v1::Report report;
  grpc::Status status = api_->GetReport(&context, request, &report);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(status.error_message(), HasSubstr("no report yet"));
  std::string data;
  v1::ArtifactInfo info;
  EXPECT_EQ(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &data, &info).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(MigrationServiceTest, FullFlowReportArtifactsAndWatch) {
  v1::Job job = SubmitGood("flow");
  const std::string tree = std::string(300000, 't') + "tree-bytes";
  const std::string patch = "--- a/src/scale.cu\n+++ b/src/scale.cu\n@@ -1 +1 @@\n-cuda\n+hip\n";

  // A watcher started before the work sees every state change through to the end.
  std::vector<v1::JobEvent> events;
  grpc::Status watch_status;
  std::thread watcher([&] {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
    v1::WatchJobRequest request;
    request.set_job_id(job.id());
    auto reader = api_->WatchJob(&context, request);
    v1::JobEvent event;
    while (reader->Read(&event)) events.push_back(event);
    watch_status = reader->Finish();
  });

  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());
  EXPECT_EQ(task->lease().job_id(), job.id());
  {
    grpc::ClientContext context;
    v1::ReportProgressRequest request;
    *request.mutable_lease() = task->lease();
    v1::JobEvent* event = request.add_events();
    event->mutable_file_progress()->set_path("src/scale.cu");
    event->mutable_file_progress()->set_done(1);
    event->mutable_file_progress()->set_total(2);
    v1::ReportProgressResponse response;
    ASSERT_TRUE(workers_->ReportProgress(&context, request, &response).ok());
    EXPECT_TRUE(response.accepted());
  }
  v1::CompleteResponse response;
  ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(job.id(), 2),
                       {{v1::ARTIFACT_KIND_TRANSLATED_TREE, tree}, {v1::ARTIFACT_KIND_PATCH, patch}}, &response)
                  .ok());
  EXPECT_TRUE(response.accepted());
  watcher.join();
  EXPECT_TRUE(watch_status.ok()) << watch_status.error_message();

  std::vector<v1::JobState> states;
  bool saw_file = false;
  for (const v1::JobEvent& event : events) {
    if (event.has_state_change()) {
      // Every change names the state it left: the previous change's target (none for the first).
      const v1::JobState from = states.empty() ? v1::JOB_STATE_UNSPECIFIED : states.back();
      EXPECT_EQ(event.state_change().from(), from)
          << "change to " << v1::JobState_Name(event.state_change().to()) << " at event " << event.sequence();
      states.push_back(event.state_change().to());
    }
    if (event.has_file_progress()) {
      saw_file = true;
      EXPECT_EQ(event.file_progress().path(), "src/scale.cu");
      EXPECT_EQ(event.file_progress().total(), 2);
    }
  }
  EXPECT_TRUE(saw_file);
  ASSERT_FALSE(states.empty());
  EXPECT_EQ(states.back(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_NE(std::find(states.begin(), states.end(), v1::JOB_STATE_TRANSLATING), states.end());
  for (size_t i = 1; i < events.size(); ++i) EXPECT_GT(events[i].sequence(), events[i - 1].sequence());

  // Resuming after the last event yields nothing more for a finished job.
  {
    grpc::ClientContext context;
    v1::WatchJobRequest request;
    request.set_job_id(job.id());
    request.set_after_sequence(events.back().sequence());
    auto reader = api_->WatchJob(&context, request);
    v1::JobEvent event;
    EXPECT_FALSE(reader->Read(&event));
    EXPECT_TRUE(reader->Finish().ok());
  }

  grpc::ClientContext report_context;
  v1::GetReportRequest report_request;
  report_request.set_job_id(job.id());
  v1::Report report;
  ASSERT_TRUE(api_->GetReport(&report_context, report_request, &report).ok());
  EXPECT_EQ(report.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(report.translation().files(), 2);
  EXPECT_EQ(report.translation().translated(), 2);
  EXPECT_EQ(report.translation().converted(), 6);
  EXPECT_EQ(report.findings_warnings(), 1);
  EXPECT_DOUBLE_EQ(report.engineer_hours(), 1.5);
  nlohmann::json json = hipforge::report::testing::WireJson(report.document());
  EXPECT_EQ(json["translation"]["files"].size(), 2u);

  std::string data;
  v1::ArtifactInfo info;
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_TRANSLATED_TREE, &data, &info).ok());
  EXPECT_EQ(data, tree);
  EXPECT_EQ(info.sha256(), Sha256Hex(tree));
  EXPECT_EQ(info.size_bytes(), static_cast<int64_t>(tree.size()));
  ASSERT_TRUE(FetchAll(*api_, job.id(), v1::ARTIFACT_KIND_PATCH, &data, &info).ok());
  EXPECT_EQ(data, patch);

  grpc::ClientContext get_context;
  v1::GetJobRequest get;
  get.set_job_id(job.id());
  v1::Job final_job;
  ASSERT_TRUE(api_->GetJob(&get_context, get, &final_job).ok());
  EXPECT_EQ(final_job.state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(final_job.attempts(), 1);
  EXPECT_THAT(std::vector<std::string>(final_job.artifact_kinds().begin(), final_job.artifact_kinds().end()),
              ::testing::UnorderedElementsAre("translated_tree", "patch"));
}

TEST_F(MigrationServiceTest, WatchUnknownJobIsNotFound) {
  grpc::ClientContext context;
  v1::WatchJobRequest request;
  request.set_job_id("00000000-0000-0000-0000-000000000000");
  auto reader = api_->WatchJob(&context, request);
  v1::JobEvent event;
  EXPECT_FALSE(reader->Read(&event));
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace hipforge::server::testing
