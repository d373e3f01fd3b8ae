// The DownloadInputs stage (worker/stages/download_inputs.cc): the input archive is streamed under the task's
// lease into the safe extractor and hashed; a checksum mismatch fails the attempt for a retry, an archive the
// extractor refuses (unsafe entries, over the ExtractLimits) fails the job for good, and in both cases nothing
// runs. Validate tasks download the original tree too.
#include <gmock/gmock.h>

#include "common/sha256.h"
#include "tests/worker/stages/stage_test_support.h"

namespace hipforge::worker::testing {
namespace {

using ::testing::HasSubstr;

class DownloadInputsTest : public WorkerStageTest {
 protected:
  // Runs `task` and expects the stage to fail it before its runner runs; returns the FailTask request.
  v1::FailTaskRequest FailedBy(ScriptedTask task, const WorkerOptions& options) {
    ScriptedRunner runner;
    auto worker = MakeWorker({{task.role, &runner}}, options);
    fake().QueueTask(std::move(task));
    v1::FailTaskRequest failure = RunOnceFailing(*worker);
    EXPECT_EQ(runner.runs(), 0) << "the runner ran on an input that failed its download";
    EXPECT_TRUE(fake().completions().empty());
    EXPECT_TRUE(ScratchIsEmpty());
    return failure;
  }
};

TEST_F(DownloadInputsTest, TheInputIsExtractedForTheRunnerUnderTheTasksLease) {
  std::string seen_kernel;
  ScriptedRunner runner([&](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    seen_kernel = ReadText(context.input_root / "src" / "scale.cu");
    return TaskOutput{.summary = "ok"};
  });
  auto worker = MakeWorker(runner);
  fake().SetDownloadChunkBytes(50);  // several chunks
  const std::string task_id = fake().QueueTask(TranslateTask());
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  EXPECT_EQ(seen_kernel, "__global__ void scale(float* x) { x[0] *= 2; }\n");
  const auto downloads = fake().downloads();
  ASSERT_EQ(downloads.size(), 1u) << "a translate task has no original tree to fetch";
  EXPECT_EQ(downloads[0].lease().task_id(), task_id);
  EXPECT_EQ(downloads[0].lease().token(), fake().completions().at(0).header.lease().token());
  EXPECT_FALSE(downloads[0].original());
}

TEST_F(DownloadInputsTest, AChecksumMismatchFailsTheAttemptForARetryAndRunsNothing) {
  ScriptedTask task = TranslateTask();
  task.input.sha256 = Sha256Hex("some other archive");
  const v1::FailTaskRequest failure = FailedBy(task, Options());
  EXPECT_EQ(failure.error(), "input archive checksum mismatch");
  EXPECT_FALSE(failure.permanent()) << "a download corrupted on the way may pass on the next attempt";
}

TEST_F(DownloadInputsTest, TrailingBytesAfterTheArchiveAreHashedAndPass) {
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);
  fake().SetDownloadChunkBytes(64);
  fake().QueueTask(TranslateTask(SmallRepoArchive() + std::string(4096, 'x')));
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted) << (fake().failures().empty() ? "" : fake().failures()[0].error());
}

struct UnsafeArchive {
  std::string name;
  std::string archive;
  std::string message;  // what the FailTask error must say
};

TEST_F(DownloadInputsTest, AnArchiveWithUnsafeEntriesFailsTheJobForGoodAndWritesNothingOutside) {
  const std::vector<UnsafeArchive> cases = {
      {"dotdot", TarForge().File("src/ok.cu", "ok\n").File("../escaped.txt", "x").Build(), "contains '..'"},
      {"absolute", TarForge().File("/tmp/escaped.txt", "x").Build(), "absolute path"},
      {"symlink-out", TarForge().File("src/ok.cu", "ok\n").Symlink("src/etc", "../../..").Build(), "symlink"},
      {"not-a-tar", std::string(2048, 'z'), ""},
  };
  for (const UnsafeArchive& unsafe : cases) {
    SCOPED_TRACE(unsafe.name);
    const v1::FailTaskRequest failure = FailedBy(TranslateTask(unsafe.archive), Options());
    EXPECT_THAT(failure.error(), HasSubstr(unsafe.message));
    EXPECT_TRUE(failure.permanent()) << failure.error();
    EXPECT_FALSE(fs::exists(scratch_root() / "escaped.txt"));
    EXPECT_FALSE(fs::exists(root_ / "escaped.txt"));
  }
}

TEST_F(DownloadInputsTest, AnArchiveOverTheExtractLimitsFailsTheJobForGood) {
  const std::string three_files =
      TarForge().File("a.cu", "a\n").File("b.cu", "b\n").File("c.cu", std::string(3000, 'c')).Build();
  WorkerOptions few_files = Options();
  few_files.extract_limits.max_files = 2;
  v1::FailTaskRequest failure = FailedBy(TranslateTask(three_files), few_files);
  EXPECT_THAT(failure.error(), HasSubstr("more than 2 entries"));
  EXPECT_TRUE(failure.permanent());

  WorkerOptions small = Options();
  small.extract_limits.max_uncompressed_bytes = 1000;
  failure = FailedBy(TranslateTask(three_files), small);
  EXPECT_THAT(failure.error(), HasSubstr("uncompressed size limit of 1000 bytes"));
  EXPECT_TRUE(failure.permanent());
}

TEST_F(DownloadInputsTest, TheLimitsOfRegisterWorkerAreTheOnesTheExtractorApplies) {
  v1::RegisterWorkerResponse registration;
  registration.mutable_input_limits()->set_max_files(2);
  fake().SetRegistration(registration);
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);
  ASSERT_TRUE(worker->Register().ok());
  fake().QueueTask(TranslateTask(TarForge().File("a.cu", "a\n").File("b.cu", "b\n").File("c.cu", "c\n").Build()));
  EXPECT_THAT(RunOnceFailing(*worker).error(), HasSubstr("more than 2 entries"));
  EXPECT_EQ(runner.runs(), 0);
}

TEST_F(DownloadInputsTest, ValidateTasksGetTheTranslatedTreeAndTheOriginalOne) {
  std::string translated, original;
  ScriptedRunner runner([&](const TaskContext& context) -> absl::StatusOr<TaskOutput> {
    translated = ReadText(context.input_root / "src" / "scale.hip");
    original = ReadText(context.original_root / "src" / "scale.cu");
    return TaskOutput{.summary = "validated"};
  });
  auto worker = MakeWorker({{v1::TASK_ROLE_VALIDATE, &runner}}, Options());
  ScriptedTask task;
  task.role = v1::TASK_ROLE_VALIDATE;
  task.input.archive = TarForge().File("src/scale.hip", "hip\n").Build();
  task.original.archive = TarForge().File("src/scale.cu", "cuda\n").Build();
  fake().QueueTask(task);
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kCompleted);
  EXPECT_EQ(translated, "hip\n");
  EXPECT_EQ(original, "cuda\n");
  const auto downloads = fake().downloads();
  ASSERT_EQ(downloads.size(), 2u);
  EXPECT_FALSE(downloads[0].original());
  EXPECT_TRUE(downloads[1].original());
  EXPECT_EQ(downloads[1].lease().token(), downloads[0].lease().token());
}

TEST_F(DownloadInputsTest, ABadOriginalTreeFailsTheValidateTaskBeforeItsRunnerRuns) {
  ScriptedTask task;
  task.role = v1::TASK_ROLE_VALIDATE;
  task.input.archive = TarForge().File("src/scale.hip", "hip\n").Build();
  task.original.archive = TarForge().File("src/scale.cu", "cuda\n").Build();
  task.original.sha256 = Sha256Hex("not it");
  const v1::FailTaskRequest failure = FailedBy(task, Options());
  EXPECT_EQ(failure.error(), "input archive checksum mismatch");
}

TEST_F(DownloadInputsTest, ALeaseLostDuringTheDownloadEndsTheTaskWithoutAReport) {
  ScriptedRunner runner;
  auto worker = MakeWorker(runner);
  ScriptedTask task = TranslateTask();
  task.input.status = grpc::Status(grpc::StatusCode::FAILED_PRECONDITION, "lease expired");
  fake().QueueTask(task);
  absl::StatusOr<TaskOutcome> outcome = worker->RunOnce();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, TaskOutcome::kLeaseLost);
  EXPECT_TRUE(fake().failures().empty()) << "nothing to report on a lease that is gone";
  EXPECT_EQ(runner.runs(), 0);
}

TEST_F(DownloadInputsTest, AServerErrorDuringTheDownloadFailsTheAttemptForARetry) {
  ScriptedTask task = TranslateTask();
  task.input.status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "artifact store unreachable");
  const v1::FailTaskRequest failure = FailedBy(task, Options());
  EXPECT_THAT(failure.error(), HasSubstr("artifact store unreachable"));
  EXPECT_FALSE(failure.permanent());
}

}  // namespace
}  // namespace hipforge::worker::testing
