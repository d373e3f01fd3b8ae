// The ReportResult stage (worker/stages/report_result.cc) and the FailTask path the stages share (Worker::Fail):
// Complete carries the task's lease and everything the runner produced, artifacts streamed in the server's chunk
// size with their hashes; a completion the server ignores or refuses is told apart; failure messages reach the
// server as valid UTF-8.
#include <gmock/gmock.h>

#include "common/sha256.h"
#include "common/utf8.h"
#include "tests/worker/stages/stage_test_support.h"

namespace hipforge::worker::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ReportResultTest : public WorkerStageTest {
 protected:
  // A runner that writes `content` as a patch artifact and a small translated tree, with a full result.
  static ScriptedRunner::Body Producing(std::string content, bool job_failed = false) {
    return [content = std::move(content), job_failed](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
      std::ofstream(context.work_dir / "migration.patch", std::ios::binary) << content;
      std::ofstream(context.work_dir / "tree.tar.gz", std::ios::binary) << "tree";
      TaskOutput output;
      output.summary = "2 of 3 files translated";
      output.files_total = 3;
      output.files_translated = 2;
      report::TranslationSection translation;
      translation.totals.files = 3;
      output.report = report::Report{.translation = translation};
      output.managed_memory = true;
      output.job_failed = job_failed;
      output.artifacts.push_back(
          {v1::ARTIFACT_KIND_PATCH, v1::COMPRESSION_FORMAT_UNSPECIFIED, context.work_dir / "migration.patch"});
      output.artifacts.push_back(
          {v1::ARTIFACT_KIND_TRANSLATED_TREE, v1::COMPRESSION_FORMAT_TAR_GZIP, context.work_dir / "tree.tar.gz"});
      return output;
    };
  }
};

TEST_F(ReportResultTest, CompleteCarriesTheLeaseAndTheRunnersOutput) {
  v1::RegisterWorkerResponse registration;
  registration.set_chunk_bytes(1000);
  fake().SetRegistration(registration);
  std::string patch(2500, '\0');
  for (size_t i = 0; i < patch.size(); ++i) patch[i] = static_cast<char>('a' + i % 26);
  std::string lease_while_running;
  ScriptedRunner::Body produce = Producing(patch);
  ScriptedRunner runner([&](const TaskContext& context) {
    lease_while_running = fake().LeaseOf(context.task_id);
    return produce(context);
  });
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  const std::string task_id = fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  EXPECT_TRUE(fake().failures().empty());

  const auto completions = fake().completions();
  ASSERT_EQ(completions.size(), 1u);
  const hipforge::testing::ReceivedCompletion& completion = completions[0];
  EXPECT_TRUE(completion.accepted);
  const v1::CompleteHeader& header = completion.header;
  EXPECT_EQ(header.lease().task_id(), task_id);
  EXPECT_EQ(header.lease().job_id(), runner.seen().job_id);
  ASSERT_FALSE(lease_while_running.empty());
  EXPECT_EQ(header.lease().token(), lease_while_running);
  EXPECT_EQ(header.lease().worker_id(), "stage-test-worker");
  EXPECT_TRUE(header.result().ok());
  EXPECT_EQ(header.result().summary(), "2 of 3 files translated");
  EXPECT_EQ(header.result().files_total(), 3);
  EXPECT_EQ(header.result().files_translated(), 2);
  ASSERT_TRUE(header.has_report());
  EXPECT_EQ(header.report().translation().totals().files(), 3);
  EXPECT_FALSE(header.report().has_findings()) << "sections the role did not produce stay absent";
  EXPECT_TRUE(header.validate_hints().managed_memory());

  ASSERT_EQ(completion.artifacts.size(), 2u);
  const hipforge::testing::ReceivedArtifact& sent_patch = completion.artifacts[0];
  EXPECT_EQ(sent_patch.info.kind(), v1::ARTIFACT_KIND_PATCH);
  EXPECT_EQ(sent_patch.bytes, patch);
  EXPECT_EQ(sent_patch.info.sha256(), Sha256Hex(patch));
  EXPECT_EQ(sent_patch.info.size_bytes(), 2500);
  EXPECT_EQ(sent_patch.chunks, 3) << "chunked in RegisterWorker's chunk_bytes";
  const hipforge::testing::ReceivedArtifact& tree = completion.artifacts[1];
  EXPECT_EQ(tree.info.kind(), v1::ARTIFACT_KIND_TRANSLATED_TREE);
  EXPECT_EQ(tree.info.format(), v1::COMPRESSION_FORMAT_TAR_GZIP);
  EXPECT_EQ(tree.bytes, "tree");
  EXPECT_TRUE(ScratchIsEmpty());
}

TEST_F(ReportResultTest, AJobThatFailedOnItsOwnTermsIsCompletedWithItsReportNotFailed) {
  ScriptedRunner runner(Producing("patch", /*job_failed=*/true));
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  ASSERT_EQ(fake().completions().size(), 1u);
  EXPECT_FALSE(fake().completions()[0].header.result().ok());
  EXPECT_EQ(fake().completions()[0].artifacts.size(), 2u) << "the report and artifacts are kept";
  EXPECT_TRUE(fake().failures().empty());
}

TEST_F(ReportResultTest, ACompletionTheServerIgnoresIsToldApart) {
  fake().SetCompleteAnswer(/*accepted=*/false);
  ScriptedRunner runner(Producing("patch"));
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompletionIgnored);
  EXPECT_TRUE(fake().failures().empty()) << "an ignored completion is not failed on top";
}

TEST_F(ReportResultTest, ACompleteTheServerRefusesIsAnErrorOfRunOnce) {
  fake().SetCompleteAnswer(/*accepted=*/true, grpc::Status(grpc::StatusCode::UNAVAILABLE, "store restarting"));
  ScriptedRunner runner(Producing("patch"));
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(outcome.status().message(), HasSubstr("store restarting"));
}

TEST_F(ReportResultTest, AnArtifactThatCannotBeReadFailsTheAttemptBeforeAnyCompleteIsSent) {
  ScriptedRunner runner([](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    TaskOutput output;
    output.artifacts.push_back(
        {v1::ARTIFACT_KIND_PATCH, v1::COMPRESSION_FORMAT_UNSPECIFIED, context.work_dir / "never-written.patch"});
    return output;
  });
  auto worker = MakeWorker(runner);
  fake().QueueTask(TranslateTask());
  const v1::FailTaskRequest failure = RunOnceFailing(*worker);
  EXPECT_THAT(failure.error(), HasSubstr("never-written.patch"));
  EXPECT_FALSE(failure.permanent());
  EXPECT_TRUE(fake().completions().empty()) << "a Complete stream was opened for a result that cannot be sent whole";
}

TEST_F(ReportResultTest, MessagesThatAreNotUtf8ReachTheServerEscaped) {
  ScriptedRunner failing([](const TaskContext&) -> absl::StatusOr<TaskOutput> {
    return absl::InternalError("cannot read src/caf\xe9.cu");
  });
  auto worker = MakeWorker(failing);
  fake().QueueTask(TranslateTask());
  const std::string error = RunOnceFailing(*worker).error();
  EXPECT_TRUE(IsValidUtf8(error)) << error;
  EXPECT_THAT(error, HasSubstr("cannot read src/caf"));
  EXPECT_THAT(error, Not(HasSubstr("\xe9")));

  ScriptedRunner summarising([](const TaskContext&) -> absl::StatusOr<TaskOutput> {
    return TaskOutput{.summary = "translated src/caf\xe9.cu"};
  });
  auto next = MakeWorker(summarising);
  fake().QueueTask(TranslateTask());
  ASSERT_TRUE(next->RunOnce().ok());
  ASSERT_EQ(fake().completions().size(), 1u);
  const std::string summary = fake().completions()[0].header.result().summary();
  EXPECT_TRUE(IsValidUtf8(summary)) << summary;
  EXPECT_THAT(summary, HasSubstr("translated src/caf"));
}

}  // namespace
}  // namespace hipforge::worker::testing
