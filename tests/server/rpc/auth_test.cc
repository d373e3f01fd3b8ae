// Authentication, scopes, tenancy and worker credentials over real gRPC and PostgreSQL: every
// MigrationService and WorkerService RPC is tried without, with a wrong and with another team's
// credential.
#include <thread>

#include <gmock/gmock.h>

#include "tests/server/rpc/rpc_test_support.h"
#include "tests/server/rpc/worker_helpers.h"

namespace hipforge::server::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Calls every MigrationService RPC on `job_id` through `stub`; returns (rpc name, status) pairs.
std::vector<std::pair<std::string, grpc::Status>> CallEveryJobRpc(v1::MigrationService::Stub& stub,
                                                                  const std::string& job_id) {
  std::vector<std::pair<std::string, grpc::Status>> results;
  {
    grpc::ClientContext context;
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    v1::Job job;
    results.emplace_back("GetJob", stub.GetJob(&context, request, &job));
  }
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::WatchJobRequest request;
    request.set_job_id(job_id);
    auto reader = stub.WatchJob(&context, request);
    v1::JobEvent event;
    int events = 0;
    while (reader->Read(&event)) ++events;
    grpc::Status status = reader->Finish();
    EXPECT_EQ(events, 0) << "WatchJob delivered events before refusing";
    results.emplace_back("WatchJob", status);
  }
  {
    grpc::ClientContext context;
    v1::GetReportRequest request;
    request.set_job_id(job_id);
    v1::Report report;
    results.emplace_back("GetReport", stub.GetReport(&context, request, &report));
  }
  for (v1::ArtifactKind kind : {v1::ARTIFACT_KIND_TRANSLATED_TREE, v1::ARTIFACT_KIND_PATCH}) {
    std::string data;
    v1::ArtifactInfo info;
    grpc::Status status = FetchAll(stub, job_id, kind, &data, &info);
    EXPECT_TRUE(data.empty()) << "FetchArtifact streamed bytes before refusing";
    results.emplace_back("FetchArtifact", status);
  }
  {
    grpc::ClientContext context;
    v1::CancelJobRequest request;
    request.set_job_id(job_id);
    v1::Job job;
    results.emplace_back("CancelJob", stub.CancelJob(&context, request, &job));
  }
  {
    grpc::ClientContext context;
    v1::ListJobsRequest request;
    v1::ListJobsResponse response;
    results.emplace_back("ListJobs", stub.ListJobs(&context, request, &response));
  }
  results.emplace_back("Submit", SubmitArchive(stub, TestSpec("x", ""), SmallCudaRepoArchive()).status);
  return results;
}

class AuthTest : public ServerTest {
 protected:
  // A job of team qa, translated, with a report and both artifacts.
  v1::Job TranslatedQaJob() {
    SubmitOutcome submitted = SubmitArchive(*api_, TestSpec("owned-by-qa"), SmallCudaRepoArchive());
    EXPECT_TRUE(submitted.status.ok()) << submitted.status.error_message();
    EXPECT_TRUE(Register(*workers_, "w1").ok());
    std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
    EXPECT_TRUE(task.has_value());
    if (task) {
      v1::CompleteResponse response;
      EXPECT_TRUE(Complete(*workers_, *task, TranslationReport(task->lease().job_id(), 1),
                           {{v1::ARTIFACT_KIND_TRANSLATED_TREE, "tree"}, {v1::ARTIFACT_KIND_PATCH, "patch"}}, &response)
                      .ok());
    }
    return WaitForJob(submitted.job.id(), [](const v1::Job& j) { return IsFinal(j.state()); });
  }
};

TEST_F(AuthTest, EveryMigrationRpcWithoutTokenIsUnauthenticated) {
  v1::Job job = TranslatedQaJob();
  ASSERT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  auto anonymous = ApiWithToken("");
  for (const auto& [rpc, status] : CallEveryJobRpc(*anonymous, job.id())) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << rpc << ": " << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("no API token")) << rpc;
  }
}

TEST_F(AuthTest, MalformedUnknownAndWrongSecretTokensAreUnauthenticated) {
  const std::string good = MintTeamToken("qa");
  std::string wrong_secret = good;
  wrong_secret.back() = wrong_secret.back() == '0' ? '1' : '0';
  const std::string unknown = "hft_000000000000_" + std::string(48, 'a');
  struct Case {
    std::string token, message;
  };
  for (const Case& c : {Case{"not-a-token", "malformed token"}, Case{unknown, "unknown or wrong secret"},
                        Case{wrong_secret, "unknown or wrong secret"}}) {
    auto stub = ApiWithToken(c.token);
    grpc::ClientContext context;
    v1::ListJobsRequest request;
    v1::ListJobsResponse response;
    grpc::Status status = stub->ListJobs(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << c.token;
    EXPECT_THAT(status.error_message(), HasSubstr(c.message));
    // The secret part never comes back in an error.
    EXPECT_THAT(status.error_message(), Not(HasSubstr(good.substr(17))));
  }
  // Another scheme than Bearer.
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Basic " + good);
  auto plain = ApiWithToken("");
  v1::ListJobsRequest request;
  v1::ListJobsResponse response;
  grpc::Status status = plain->ListJobs(&context, request, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(status.error_message(), HasSubstr("Bearer"));
}

TEST_F(AuthTest, ExpiredAndRevokedTokensAreUnauthenticated) {
  const std::string short_lived = MintTeamToken("qa", {Scope::kRead}, std::chrono::seconds(1));
  const std::string revocable = MintTeamToken("qa", {Scope::kRead});
  auto list = [&](const std::string& token) {
    auto stub = ApiWithToken(token);
    grpc::ClientContext context;
    v1::ListJobsRequest request;
    v1::ListJobsResponse response;
    return stub->ListJobs(&context, request, &response);
  };
  EXPECT_TRUE(list(short_lived).ok());
  EXPECT_TRUE(list(revocable).ok());
  ASSERT_TRUE(app_->credentials().Revoke(revocable.substr(0, 16), clock_.Now()).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  grpc::Status expired = list(short_lived);
  EXPECT_EQ(expired.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(expired.error_message(), HasSubstr(short_lived.substr(0, 16) + " expired"));
  grpc::Status revoked = list(revocable);
  EXPECT_EQ(revoked.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(revoked.error_message(), HasSubstr(revocable.substr(0, 16) + " was revoked"));
}

TEST_F(AuthTest, MissingScopeIsPermissionDenied) {
  v1::Job job = TranslatedQaJob();
  auto read_only = ApiWithToken(MintTeamToken("qa", {Scope::kRead}));
  auto submit_only = ApiWithToken(MintTeamToken("qa", {Scope::kSubmit}));
  SubmitOutcome submitted = SubmitArchive(*read_only, TestSpec("no-submit"), SmallCudaRepoArchive());
  EXPECT_EQ(submitted.status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(submitted.status.error_message(), HasSubstr("lacks the 'submit' scope"));
  {
    grpc::ClientContext context;
    v1::CancelJobRequest request;
    request.set_job_id(job.id());
    v1::Job cancelled;
    grpc::Status status = read_only->CancelJob(&context, request, &cancelled);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_THAT(status.error_message(), HasSubstr("'cancel' scope"));
  }
  for (const auto& [rpc, status] : CallEveryJobRpc(*submit_only, job.id())) {
    if (rpc == "Submit") {
      EXPECT_TRUE(status.ok()) << status.error_message();
    } else {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << rpc << ": " << status.error_message();
    }
  }
  // Admin implies every scope.
  auto admin = ApiWithToken(MintTeamToken("qa", {Scope::kAdmin}));
  grpc::ClientContext context;
  v1::GetJobRequest request;
  request.set_job_id(job.id());
  v1::Job got;
  EXPECT_TRUE(admin->GetJob(&context, request, &got).ok());
}

TEST_F(AuthTest, TheJobsTeamComesFromTheToken) {
  SubmitOutcome unnamed = SubmitArchive(*api_, TestSpec("unnamed", ""), SmallCudaRepoArchive());
  ASSERT_TRUE(unnamed.status.ok()) << unnamed.status.error_message();
  EXPECT_EQ(unnamed.job.spec().team(), "qa");
  SubmitOutcome other = SubmitArchive(*api_, TestSpec("impostor", "finance"), SmallCudaRepoArchive());
  EXPECT_EQ(other.status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(other.status.error_message(), HasSubstr("cannot submit for team 'finance'"));
}

TEST_F(AuthTest, AnotherTeamsJobIsNotFoundForEveryRpc) {
  v1::Job job = TranslatedQaJob();
  ASSERT_EQ(job.state(), v1::JOB_STATE_SUCCEEDED);
  const std::string absent = "00000000-0000-4000-8000-000000000000";
  v1::MigrationService::Stub& other_team = ApiFor("finance");
  auto on_job = CallEveryJobRpc(other_team, job.id());
  auto on_absent = CallEveryJobRpc(other_team, absent);
  ASSERT_EQ(on_job.size(), on_absent.size());
  for (size_t i = 0; i < on_job.size(); ++i) {
    const auto& [rpc, status] = on_job[i];
    if (rpc == "Submit") continue;
    if (rpc == "ListJobs") {
      EXPECT_TRUE(status.ok());
      continue;
    }
    EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND) << rpc << ": " << status.error_message();
    // Worded exactly like an absent job, id aside: no existence oracle.
    auto without = [](std::string message, const std::string& id) {
      if (size_t at = message.find(id); at != std::string::npos) message.replace(at, id.size(), "<id>");
      return message;
    };
    EXPECT_EQ(without(status.error_message(), job.id()), without(on_absent[i].second.error_message(), absent)) << rpc;
  }
  // finance lists only its own job (the one CallEveryJobRpc submitted), never qa's.
  grpc::ClientContext context;
  v1::ListJobsRequest request;
  v1::ListJobsResponse response;
  ASSERT_TRUE(other_team.ListJobs(&context, request, &response).ok());
  for (const v1::Job& listed : response.jobs()) {
    EXPECT_NE(listed.id(), job.id());
    EXPECT_EQ(listed.spec().team(), "finance");
  }
  grpc::ClientContext filtered_context;
  request.set_team("qa");
  grpc::Status filtered = other_team.ListJobs(&filtered_context, request, &response);
  EXPECT_EQ(filtered.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  // The cancel attempt changed nothing.
  EXPECT_EQ(WaitForJob(job.id(), [](const v1::Job&) { return true; }).state(), v1::JOB_STATE_SUCCEEDED);
}

// Every WorkerService call on a real leased task, through `stub`.
std::vector<std::pair<std::string, grpc::Status>> CallEveryWorkerRpc(v1::WorkerService::Stub& stub,
                                                                     const v1::Task& task) {
  std::vector<std::pair<std::string, grpc::Status>> results;
  results.emplace_back("RegisterWorker", Register(stub, "impostor"));
  grpc::Status lease_status;
  Lease(stub, "w1", 0, &lease_status);
  results.emplace_back("LeaseTask", lease_status);
  results.emplace_back("Heartbeat", Heartbeat(stub, task));
  std::string data;
  grpc::Status download = Download(stub, task, &data);
  EXPECT_TRUE(data.empty()) << "the impostor got input bytes";
  results.emplace_back("DownloadInput", download);
  v1::CompleteResponse completed;
  results.emplace_back("Complete", Complete(stub, task, "{}", {}, &completed));
  {
    grpc::ClientContext context;
    v1::FailTaskRequest request;
    *request.mutable_lease() = task.lease();
    v1::FailTaskResponse response;
    results.emplace_back("FailTask", stub.FailTask(&context, request, &response));
  }
  {
    grpc::ClientContext context;
    v1::ReportProgressRequest request;
    *request.mutable_lease() = task.lease();
    v1::ReportProgressResponse response;
    results.emplace_back("ReportProgress", stub.ReportProgress(&context, request, &response));
  }
  return results;
}

TEST_F(AuthTest, WorkerServiceRefusesCallersWithoutWorkerCredential) {
  SubmitOutcome submitted = SubmitArchive(*api_, TestSpec("leased"), SmallCudaRepoArchive());
  ASSERT_TRUE(submitted.status.ok());
  ASSERT_TRUE(Register(*workers_, "w1").ok());
  std::optional<v1::Task> task = Lease(*workers_, "w1", 2000);
  ASSERT_TRUE(task.has_value());

  auto anonymous = WorkersWithToken("");
  for (const auto& [rpc, status] : CallEveryWorkerRpc(*anonymous, *task)) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << rpc << ": " << status.error_message();
  }
  auto team_token = WorkersWithToken(MintTeamToken("qa", {Scope::kAdmin}));
  for (const auto& [rpc, status] : CallEveryWorkerRpc(*team_token, *task)) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << rpc << ": " << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr("WorkerService takes worker credentials")) << rpc;
  }
  // The real worker still holds its lease and can finish: nothing the impostors did counted.
  EXPECT_TRUE(Heartbeat(*workers_, *task).ok());
  v1::CompleteResponse response;
  ASSERT_TRUE(Complete(*workers_, *task, TranslationReport(task->lease().job_id(), 1), {}, &response).ok());
  EXPECT_TRUE(response.accepted());

  // A worker credential is not a team token either.
  auto worker_on_api = ApiWithToken(MintWorkerCredential());
  grpc::ClientContext context;
  v1::ListJobsRequest request;
  v1::ListJobsResponse listed;
  grpc::Status status = worker_on_api->ListJobs(&context, request, &listed);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(status.error_message(), HasSubstr("worker credential"));
}

TEST_F(AuthTest, WorkerCredentialGrantsOnlyItsRolesAndToolchains) {
  auto translate_pool = WorkersWithToken(MintWorkerCredential("cpu", {"translate"}));
  grpc::Status validate = Register(*translate_pool, "cpu-1", v1::TASK_ROLE_VALIDATE);
  EXPECT_EQ(validate.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(validate.error_message(), HasSubstr("does not grant the validate role"));
  ASSERT_TRUE(Register(*translate_pool, "cpu-1", v1::TASK_ROLE_TRANSLATE).ok());
  {
    grpc::ClientContext context;
    v1::LeaseTaskRequest request;
    request.set_worker_id("cpu-1");
    request.add_roles(v1::TASK_ROLE_VALIDATE);
    v1::LeaseTaskResponse response;
    EXPECT_EQ(translate_pool->LeaseTask(&context, request, &response).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }
  // Another credential cannot take over a registered worker id.
  auto other_pool = WorkersWithToken(MintWorkerCredential("other", {"translate"}));
  grpc::Status hijack;
  Lease(*other_pool, "cpu-1", 0, &hijack);
  EXPECT_EQ(hijack.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Register(*other_pool, "cpu-1").error_code(), grpc::StatusCode::PERMISSION_DENIED);

  auto rocm64_only = WorkersWithToken(MintWorkerCredential("gpu", {"validate"}, {"rocm-6.4*"}));
  auto register_with = [&](const std::string& toolchain) {
    grpc::ClientContext context;
    v1::RegisterWorkerRequest request;
    request.set_worker_id("gpu-" + toolchain);
    request.add_roles(v1::TASK_ROLE_VALIDATE);
    request.mutable_capabilities()->set_toolchain(toolchain);
    v1::RegisterWorkerResponse response;
    return rocm64_only->RegisterWorker(&context, request, &response);
  };
  EXPECT_TRUE(register_with("rocm-6.4.3").ok());
  grpc::Status old = register_with("rocm-5.7.1");
  EXPECT_EQ(old.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(old.error_message(), HasSubstr("does not allow toolchain 'rocm-5.7.1'"));

  // A worker with several probed toolchains: every one it advertises must be allowed, not only the newest.
  auto register_with_toolchains = [&](const std::string& id, const std::vector<std::string>& names) {
    grpc::ClientContext context;
    v1::RegisterWorkerRequest request;
    request.set_worker_id(id);
    request.add_roles(v1::TASK_ROLE_VALIDATE);
    request.mutable_capabilities()->set_toolchain("rocm-6.4: HIP 6.4.3, clang 21.1.8");
    for (const std::string& name : names) request.mutable_capabilities()->add_toolchains()->set_name(name);
    v1::RegisterWorkerResponse response;
    return rocm64_only->RegisterWorker(&context, request, &response);
  };
  EXPECT_TRUE(register_with_toolchains("gpu-a", {"rocm-6.4"}).ok());
  grpc::Status mixed = register_with_toolchains("gpu-b", {"rocm-6.4", "rocm-5.7"});
  EXPECT_EQ(mixed.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(mixed.error_message(), HasSubstr("does not allow toolchain 'rocm-5.7'"));
}

}  // namespace
}  // namespace hipforge::server::testing
