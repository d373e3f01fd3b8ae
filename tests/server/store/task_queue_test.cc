// The task queue against a real PostgreSQL: leases, completion, retries, rescue, wake-ups.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>
#include <pqxx/pqxx>

#include "tests/common/report_fixture.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server::testing {
namespace {

using report::testing::ReportOf;
using std::chrono::milliseconds;
using std::chrono::seconds;

LeaseRequest Translator(const std::string& worker = "w1", milliseconds lease = seconds(30)) {
  return LeaseRequest{worker, {TaskKind::kTranslate}, {}, lease};
}

LeaseRequest Validator(std::vector<std::string> capabilities = {}, const std::string& worker = "v1") {
  return LeaseRequest{worker, {TaskKind::kValidate}, std::move(capabilities), seconds(30)};
}

class TaskQueueTest : public StoreTest {
 protected:
  LeasedTask MustLease(const LeaseRequest& request) {
    auto leased = store_->LeaseTask(request);
    EXPECT_TRUE(leased.ok()) << leased.status();
    EXPECT_TRUE(leased.ok() && leased->has_value()) << "nothing to lease";
    return leased.ok() && leased->has_value() ? **leased : LeasedTask{};
  }
  bool NothingToLease(const LeaseRequest& request) {
    auto leased = store_->LeaseTask(request);
    EXPECT_TRUE(leased.ok()) << leased.status();
    return leased.ok() && !leased->has_value();
  }
  JobState StateOf(const std::string& job_id) {
    auto job = store_->GetJob(job_id);
    EXPECT_TRUE(job.ok()) << job.status();
    return job.ok() ? job->state : JobState::kFailed;
  }
  TaskCompletion Completion(const LeasedTask& task, const std::string& result = R"({"ok":true})") {
    TaskCompletion completion;
    completion.lease = task.lease;
    completion.result_json = result;
    return completion;
  }
};

TEST_F(TaskQueueTest, CreateJobEnqueuesTranslateTaskWithPayload) {
  const Job job = CreateTestJob("payload", {"gfx90a"});
  auto tasks = store_->ListTasks(job.id);
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ((*tasks)[0].kind, TaskKind::kTranslate);
  EXPECT_EQ((*tasks)[0].state, TaskState::kAvailable);
  EXPECT_EQ((*tasks)[0].attempt, 0);

  const LeasedTask task = MustLease(Translator());
  EXPECT_EQ(task.lease.job_id, job.id);
  EXPECT_EQ(task.attempt, 1);
  EXPECT_EQ(task.lease_expires_at, clock_.Now() + seconds(30));
  EXPECT_NE(task.payload_json.find(job.input_digest), std::string::npos) << task.payload_json;
  EXPECT_NE(task.payload_json.find("gfx90a"), std::string::npos) << task.payload_json;
  EXPECT_EQ(StateOf(job.id), JobState::kTranslating);
  EXPECT_TRUE(NothingToLease(Translator("w2")));
}

TEST_F(TaskQueueTest, LeaseRespectsRoles) {
  CreateTestJob("roles");
  EXPECT_TRUE(NothingToLease(Validator()));
  MustLease(Translator());
}

TEST_F(TaskQueueTest, ConcurrentWorkersLeaseEachTaskExactlyOnce) {
  constexpr int kJobs = 60;
  constexpr int kWorkers = 6;
  for (int i = 0; i < kJobs; ++i) CreateTestJob("job-" + std::to_string(i));
  std::mutex mutex;
  std::multiset<std::string> leased_ids;
  std::atomic<int> errors{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      for (;;) {
        auto leased = store_->LeaseTask(Translator("worker-" + std::to_string(w)));
        if (!leased.ok()) {
          ++errors;
          return;
        }
        if (!leased->has_value()) return;
        std::lock_guard lock(mutex);
        leased_ids.insert((*leased)->lease.task_id);
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(leased_ids.size(), static_cast<size_t>(kJobs));
  EXPECT_EQ(std::set<std::string>(leased_ids.begin(), leased_ids.end()).size(), static_cast<size_t>(kJobs))
      << "a task was leased twice";
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM tasks WHERE state = 'running' AND attempt = 1"), std::to_string(kJobs));
}

TEST_F(TaskQueueTest, CompleteWithoutTargetsSucceedsJob) {
  const Job job = CreateTestJob("no-targets");
  const LeasedTask task = MustLease(Translator());
  auto outcome = store_->CompleteTask(Completion(task));
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kSucceeded);
  auto tasks = store_->ListTasks(job.id);
  ASSERT_TRUE(tasks.ok());
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ((*tasks)[0].state, TaskState::kCompleted);
  EXPECT_EQ((*tasks)[0].result_json, R"({"ok": true})");
}

TEST_F(TaskQueueTest, TranslateThenValidateStateMachine) {
  const Job job = CreateTestJob("full", {"gfx90a", "gfx942"});
  const LeasedTask translate = MustLease(Translator());
  TaskCompletion completion = Completion(translate);
  completion.artifacts.push_back({"translated_tree", std::string(64, 'a'), 123, "application/x-tar"});
  ASSERT_EQ(*store_->CompleteTask(completion), CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kTranslated);

  const LeasedTask validate = MustLease(Validator());
  EXPECT_EQ(validate.kind, TaskKind::kValidate);
  EXPECT_NE(validate.payload_json.find(std::string(64, 'a')), std::string::npos)
      << "validate payload lacks the translated tree digest: " << validate.payload_json;
  EXPECT_EQ(StateOf(job.id), JobState::kValidating);
  ASSERT_EQ(*store_->CompleteTask(Completion(validate)), CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kSucceeded);

  // The whole history is in the event log, in order.
  auto events = store_->ListEventsSince(job.id, 0);
  ASSERT_TRUE(events.ok()) << events.status();
  std::vector<std::string> states;
  for (const auto& event : *events) {
    if (event.kind == "state") states.push_back(event.payload_json);
  }
  ASSERT_EQ(states.size(), 5u);
  EXPECT_NE(states[0].find("queued"), std::string::npos);
  EXPECT_NE(states[1].find("translating"), std::string::npos);
  EXPECT_NE(states[2].find("translated"), std::string::npos);
  EXPECT_NE(states[3].find("validating"), std::string::npos);
  EXPECT_NE(states[4].find("succeeded"), std::string::npos);
  // Each change names the state it left (WatchJob's StateChange.from); the creation has none.
  const std::vector<std::string> expected_from = {"", "queued", "translating", "translated", "validating"};
  for (size_t i = 0; i < states.size(); ++i) {
    const nlohmann::json payload = nlohmann::json::parse(states[i]);
    EXPECT_EQ(payload.value("from", ""), expected_from[i]) << states[i];
  }
}

TEST_F(TaskQueueTest, ValidationNotRequestedSkipsValidateTask) {
  const Job job = CreateTestJob("no-validate", {"gfx90a"}, /*validate=*/false);
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kSucceeded);
  EXPECT_EQ(store_->ListTasks(job.id)->size(), 1u);
}

TEST_F(TaskQueueTest, ValidateTaskNeedsRequiredCapabilities) {
  JobSpec spec;
  spec.name = "caps";
  spec.targets = {"gfx90a"};
  spec.validate_capabilities = {"gfx90a"};
  auto job = store_->CreateJob(spec, FakeInput("caps"));
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_TRUE(NothingToLease(Validator({"gfx940"})));
  const LeasedTask task = MustLease(Validator({"gfx940", "gfx90a"}));
  EXPECT_EQ(task.lease.job_id, job->id);
}

// Worker toolchains as the worker service passes them (grpc_worker_service.cc ToolchainsJson).
constexpr const char* kHostToolchain =
    R"([{"name": "host", "hip_release": "5.2", "archs": ["gfx90a", "gfx940"],
         "stand_in_archs": ["gfx90a", "gfx940", "gfx941", "gfx942"]}])";
constexpr const char* kRocm64Toolchain =
    R"([{"name": "rocm-6.4", "hip_release": "6.4", "archs": ["gfx90a", "gfx942", "gfx950"],
         "stand_in_archs": ["gfx90a", "gfx942", "gfx950"]}])";

LeaseRequest ValidatorWith(const std::string& toolchains_json, const std::string& worker,
                           milliseconds stand_in_after = seconds(60)) {
  LeaseRequest request = Validator({}, worker);
  request.toolchains_json = toolchains_json;
  request.stand_in_after = stand_in_after;
  return request;
}

TEST_F(TaskQueueTest, ValidateTaskGoesToAWorkerWhoseToolchainHasEveryTarget) {
  const Job job = CreateTestJob("toolchain-route", {"gfx942", "gfx90a:xnack+"});
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  // The host's HIP 5.2 reaches gfx942 only through the gfx940 stand-in: not while an exact one may come.
  EXPECT_TRUE(NothingToLease(ValidatorWith(kHostToolchain, "host-worker")));
  const LeasedTask task = MustLease(ValidatorWith(kRocm64Toolchain, "rocm-worker"));
  EXPECT_EQ(task.lease.job_id, job.id);
}

constexpr const char* kHipOnCudaToolchain =
    R"([{"name": "hip-on-cuda", "hip_release": "6.4", "archs": ["sm_90"], "stand_in_archs": ["sm_90"]}])";

// A job with gfx and sm_ targets: one validate task per platform, each leased by its own pool with its own targets;
// the job succeeds when the second completes, and the report holds both platforms' builds and tests with one
// verdict over both.
TEST_F(TaskQueueTest, AJobOverTwoPlatformsValidatesOncePerPlatformAndReportsBoth) {
  const Job job = CreateTestJob("two-platforms", {"gfx942", "sm_90"});
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM tasks WHERE kind = 'validate' AND job_id = '" + job.id + "'"), "2");
  const LeasedTask nvidia = MustLease(ValidatorWith(kHipOnCudaToolchain, "nvidia-worker"));
  const nlohmann::json nvidia_payload = nlohmann::json::parse(nvidia.payload_json);
  EXPECT_EQ(nvidia_payload["platform"], "nvidia");
  EXPECT_EQ(nvidia_payload["targets"], nlohmann::json::array({"sm_90"}));
  EXPECT_TRUE(NothingToLease(ValidatorWith(kHipOnCudaToolchain, "nvidia-worker-2")));
  const LeasedTask amd = MustLease(ValidatorWith(kRocm64Toolchain, "rocm-worker"));
  EXPECT_EQ(nlohmann::json::parse(amd.payload_json)["targets"], nlohmann::json::array({"gfx942"}));

  TaskCompletion nvidia_done = Completion(nvidia);
  nvidia_done.report = ReportOf(R"({"builds": [{"requested_arch": "sm_90", "arch": "sm_90", "ok": true}],
      "tests": [{"name": "make run", "arch": "sm_90", "status": "passed"}],
      "gpu": {"ran_on_gpu": true, "device_arch": "sm_90", "note": "ran on NVIDIA H200"}})");
  ASSERT_EQ(*store_->CompleteTask(nvidia_done), CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kValidating) << "the AMD task is still to finish";
  TaskCompletion amd_done = Completion(amd);
  amd_done.report = ReportOf(R"({"builds": [{"requested_arch": "gfx942", "arch": "gfx942", "ok": true}],
      "tests": [{"name": "make run", "arch": "gfx942", "status": "not_run"}],
      "gpu": {"ran_on_gpu": false, "note": "not run on a GPU: compile-only worker"}})");
  ASSERT_EQ(*store_->CompleteTask(amd_done), CompletionOutcome::kApplied);
  EXPECT_EQ(StateOf(job.id), JobState::kSucceeded);

  auto stored = store_->GetReport(job.id);
  ASSERT_TRUE(stored.ok()) << stored.status();
  const nlohmann::json report = nlohmann::json::parse(*stored);
  ASSERT_EQ(report["builds"].size(), 2u) << report.dump();
  EXPECT_EQ(report["builds"][0]["requested_arch"], "gfx942") << "AMD first";
  EXPECT_EQ(report["builds"][1]["requested_arch"], "sm_90");
  ASSERT_EQ(report["tests"].size(), 2u);
  EXPECT_EQ(report["verdict"]["level"], "behaviour_checked");
  EXPECT_EQ(report["verdict"]["platform"], "HIP's NVIDIA platform (sm_90)");
  EXPECT_NE(report["verdict"]["not_proved"].dump().find("tests: 1 not run (gfx942)"), std::string::npos)
      << report["verdict"].dump();
  EXPECT_NE(report["gpu"]["note"].get<std::string>().find("compile-only worker; ran on NVIDIA H200"), std::string::npos)
      << report["gpu"].dump();
}

TEST_F(TaskQueueTest, StandInToolchainTakesTheTaskOnlyAfterTheGracePeriod) {
  const Job job = CreateTestJob("toolchain-stand-in", {"gfx942"});
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_TRUE(NothingToLease(ValidatorWith(kHostToolchain, "host-worker", seconds(60))));
  clock_.Advance(seconds(61));
  const LeasedTask task = MustLease(ValidatorWith(kHostToolchain, "host-worker", seconds(60)));
  EXPECT_EQ(task.lease.job_id, job.id);
}

TEST_F(TaskQueueTest, RequestedHipReleaseSelectsTheToolchain) {
  JobSpec spec;
  spec.name = "toolchain-release";
  spec.targets = {"gfx90a"};
  spec.options_json = R"({"hip_version": "5.7.1"})";
  auto job = store_->CreateJob(spec, FakeInput("toolchain-release"));
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_TRUE(NothingToLease(ValidatorWith(kRocm64Toolchain, "rocm64-worker")));
  EXPECT_TRUE(NothingToLease(ValidatorWith(kHostToolchain, "host-worker")));
  const LeasedTask task = MustLease(ValidatorWith(
      R"([{"name": "rocm-5.7", "hip_release": "5.7", "archs": ["gfx90a", "gfx942"], "stand_in_archs": []}])",
      "rocm57-worker"));
  EXPECT_EQ(task.lease.job_id, job->id);
  auto tasks = store_->ListTasks(job->id);
  ASSERT_TRUE(tasks.ok());
}

TEST_F(TaskQueueTest, WorkerWithoutToolchainsIsMatchedOnTagsAlone) {
  const Job job = CreateTestJob("toolchain-legacy", {"gfx942"});
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_EQ(MustLease(Validator()).lease.job_id, job.id);
}

TEST_F(TaskQueueTest, JobFailureFromCompletionFailsJob) {
  const Job job = CreateTestJob("no-cuda", {"gfx90a"});
  TaskCompletion completion = Completion(MustLease(Translator()));
  completion.job_failure = "repository has no CUDA sources";
  ASSERT_EQ(*store_->CompleteTask(completion), CompletionOutcome::kApplied);
  auto failed = store_->GetJob(job.id);
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->state, JobState::kFailed);
  EXPECT_EQ(failed->error_message, "repository has no CUDA sources");
  EXPECT_EQ(store_->ListTasks(job.id)->size(), 1u) << "no validate task for a failed job";
}

TEST_F(TaskQueueTest, StaleLeaseTokenIsRejectedAndChangesNothing) {
  const Job job = CreateTestJob("stale");
  const LeasedTask first = MustLease(Translator("w1", seconds(10)));
  clock_.Advance(seconds(11));
  ASSERT_EQ(*store_->RescueExpiredLeases(), 1);
  const LeasedTask second = MustLease(Translator("w2"));
  EXPECT_EQ(second.lease.task_id, first.lease.task_id);
  EXPECT_EQ(second.attempt, 2);
  EXPECT_NE(second.lease.token, first.lease.token);

  const std::string before = QueryScalar("SELECT row_to_json(t)::text FROM tasks t");
  auto late = store_->CompleteTask(Completion(first, R"({"from":"w1"})"));
  ASSERT_TRUE(late.ok()) << late.status();
  EXPECT_EQ(*late, CompletionOutcome::kLeaseLost);
  EXPECT_EQ(QueryScalar("SELECT row_to_json(t)::text FROM tasks t"), before);
  EXPECT_EQ(StateOf(job.id), JobState::kTranslating);
  EXPECT_FALSE(store_->HeartbeatTask(first.lease, seconds(30)).ok());
  EXPECT_EQ(*store_->FailTask(first.lease, "late"), FailureOutcome::kLeaseLost);

  ASSERT_EQ(*store_->CompleteTask(Completion(second, R"({"from":"w2"})")), CompletionOutcome::kApplied);
  EXPECT_EQ(QueryScalar("SELECT result->>'from' FROM tasks"), "w2");
}

TEST_F(TaskQueueTest, DuplicateCompletionIsIdempotent) {
  const Job job = CreateTestJob("dup", {"gfx90a"});
  const LeasedTask task = MustLease(Translator());
  TaskCompletion completion = Completion(task);
  completion.report = ReportOf(R"({"findings":[{"rule_id":"HB101","severity":"error","path":"a.cu","line":1}]})");
  ASSERT_EQ(*store_->CompleteTask(completion), CompletionOutcome::kApplied);
  const std::string events_before = QueryScalar("SELECT count(*) FROM job_events");
  auto again = store_->CompleteTask(completion);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, CompletionOutcome::kAlreadyCompleted);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM job_events"), events_before);
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM tasks WHERE kind = 'validate'"), "1") << "validate enqueued twice";
  EXPECT_EQ(QueryScalar("SELECT count(*) FROM report_findings"), "1");
  EXPECT_EQ(StateOf(job.id), JobState::kTranslated);
}

TEST_F(TaskQueueTest, HeartbeatExtendsOnlyOwnLease) {
  CreateTestJob("heartbeat");
  const LeasedTask task = MustLease(Translator("w1", seconds(10)));
  clock_.Advance(seconds(8));
  auto extended = store_->HeartbeatTask(task.lease, seconds(10));
  ASSERT_TRUE(extended.ok()) << extended.status();
  EXPECT_EQ(*extended, clock_.Now() + seconds(10));
  clock_.Advance(seconds(8));  // past the original expiry, within the extended one
  EXPECT_EQ(*store_->RescueExpiredLeases(), 0);
  const Lease forged{.task_id = task.lease.task_id, .token = "00000000-0000-0000-0000-000000000000"};
  auto wrong = store_->HeartbeatTask(forged, seconds(10));
  EXPECT_EQ(wrong.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(TaskQueueTest, ExpiredLeaseIsRescuedAndAttemptCounted) {
  const Job job = CreateTestJob("rescue");
  MustLease(Translator("w1", seconds(5)));
  EXPECT_EQ(*store_->RescueExpiredLeases(), 0) << "not expired yet";
  clock_.Advance(seconds(6));
  EXPECT_EQ(*store_->RescueExpiredLeases(), 1);
  auto tasks = store_->ListTasks(job.id);
  ASSERT_TRUE(tasks.ok());
  EXPECT_EQ((*tasks)[0].state, TaskState::kAvailable);
  EXPECT_EQ((*tasks)[0].attempt, 1);
  EXPECT_FALSE((*tasks)[0].lease_owner.has_value());
  EXPECT_NE((*tasks)[0].last_error.find("lease expired"), std::string::npos);
  EXPECT_EQ(MustLease(Translator("w2")).attempt, 2);
}

TEST_F(TaskQueueTest, RescueDeadLettersAfterMaxAttempts) {
  const Job job = CreateTestJob("rescue-dead");
  for (int attempt = 1; attempt <= 3; ++attempt) {
    ASSERT_EQ(MustLease(Translator("w", seconds(1))).attempt, attempt);
    clock_.Advance(seconds(2));
    ASSERT_EQ(*store_->RescueExpiredLeases(), 1);
  }
  EXPECT_EQ(store_->ListTasks(job.id)->at(0).state, TaskState::kDead);
  EXPECT_EQ(StateOf(job.id), JobState::kFailed);
  EXPECT_TRUE(NothingToLease(Translator()));
}

// A worker that stops returns its task: leasable at once by anyone, the attempt not counted, even on
// the last attempt; a stale token changes nothing.
TEST_F(TaskQueueTest, GivenBackTaskIsLeasableAtOnceAndItsAttemptIsNotCounted) {
  const Job job = CreateTestJob("give-back");
  LeasedTask task = MustLease(Translator("stopping"));
  ASSERT_EQ(task.attempt, 1);
  ASSERT_EQ(*store_->GiveBackTask(task.lease, "worker stopping"), FailureOutcome::kRetryScheduled);
  EXPECT_EQ(*store_->GiveBackTask(task.lease, "twice"), FailureOutcome::kLeaseLost);
  auto tasks = store_->ListTasks(job.id);
  EXPECT_EQ(tasks->at(0).state, TaskState::kAvailable);
  EXPECT_EQ(tasks->at(0).last_error, "worker stopping");
  EXPECT_EQ(StateOf(job.id), JobState::kTranslating);  // as after a rescued lease: the next lease goes on
  // max_attempts (3) give-backs in a row never dead-letter the task.
  for (int round = 0; round < 3; ++round) {
    task = MustLease(Translator("next"));  // no clock advance: no backoff
    EXPECT_EQ(task.attempt, 1);
    ASSERT_EQ(*store_->GiveBackTask(task.lease, "stopping again"), FailureOutcome::kRetryScheduled);
  }
  task = MustLease(Translator("last"));
  EXPECT_EQ(task.attempt, 1);
  const Lease forged{.task_id = task.lease.task_id, .token = "00000000-0000-0000-0000-000000000000"};
  EXPECT_EQ(*store_->GiveBackTask(forged, "wrong token"), FailureOutcome::kLeaseLost);
  ASSERT_EQ(*store_->CompleteTask(Completion(task)), CompletionOutcome::kApplied);
}

TEST_F(TaskQueueTest, FailedTaskRetriesWithExponentialBackoffThenDeadLetters) {
  const Job job = CreateTestJob("retry");
  // Attempt 1 fails: retry after base (10 s).
  LeasedTask task = MustLease(Translator());
  ASSERT_EQ(*store_->FailTask(task.lease, "hipify crashed"), FailureOutcome::kRetryScheduled);
  auto tasks = store_->ListTasks(job.id);
  EXPECT_EQ(tasks->at(0).state, TaskState::kFailed);
  EXPECT_EQ(tasks->at(0).run_after, clock_.Now() + seconds(10));
  EXPECT_EQ(tasks->at(0).last_error, "hipify crashed");
  EXPECT_TRUE(NothingToLease(Translator())) << "leased before its backoff ended";
  clock_.Advance(seconds(10));
  // Attempt 2 fails: retry after 2 * base.
  task = MustLease(Translator());
  EXPECT_EQ(task.attempt, 2);
  ASSERT_EQ(*store_->FailTask(task.lease, "again"), FailureOutcome::kRetryScheduled);
  EXPECT_EQ(store_->ListTasks(job.id)->at(0).run_after, clock_.Now() + seconds(20));
  clock_.Advance(seconds(19));
  EXPECT_TRUE(NothingToLease(Translator()));
  clock_.Advance(seconds(1));
  // Attempt 3 (the last) fails: dead letter, job failed.
  task = MustLease(Translator());
  EXPECT_EQ(task.attempt, 3);
  ASSERT_EQ(*store_->FailTask(task.lease, "third"), FailureOutcome::kDeadLettered);
  EXPECT_EQ(store_->ListTasks(job.id)->at(0).state, TaskState::kDead);
  auto failed = store_->GetJob(job.id);
  EXPECT_EQ(failed->state, JobState::kFailed);
  EXPECT_NE(failed->error_message.find("third"), std::string::npos) << failed->error_message;
  clock_.Advance(seconds(3600));
  EXPECT_TRUE(NothingToLease(Translator()));
}

TEST_F(TaskQueueTest, BackoffIsCapped) {
  auto options = Options();
  options.default_max_attempts = 10;
  options.retry_backoff_base = seconds(10);
  options.retry_backoff_max = seconds(25);
  auto store = OpenPostgresJobStore(options, clock_);
  ASSERT_TRUE(store.ok());
  JobSpec spec;
  spec.name = "capped";
  auto job = (*store)->CreateJob(spec, FakeInput("capped"));
  ASSERT_TRUE(job.ok());
  for (int attempt = 1; attempt <= 3; ++attempt) {
    auto leased = (*store)->LeaseTask(Translator());
    ASSERT_TRUE(leased.ok() && leased->has_value());
    ASSERT_EQ(*(*store)->FailTask((*leased)->lease, "x"), FailureOutcome::kRetryScheduled);
    clock_.Advance(seconds(100));
  }
  clock_.Advance(-seconds(100));
  EXPECT_EQ((*store)->ListTasks(job->id)->at(0).run_after, clock_.Now() + seconds(25));
}

TEST_F(TaskQueueTest, CancelCancelsTasksAndVoidsLeases) {
  const Job job = CreateTestJob("cancel", {"gfx90a"});
  const LeasedTask task = MustLease(Translator());
  auto cancelled = store_->CancelJob(job.id, "user asked");
  ASSERT_TRUE(cancelled.ok()) << cancelled.status();
  EXPECT_EQ(cancelled->state, JobState::kCancelled);
  EXPECT_EQ(cancelled->error_message, "user asked");
  EXPECT_EQ(store_->ListTasks(job.id)->at(0).state, TaskState::kCancelled);
  EXPECT_EQ(*store_->CompleteTask(Completion(task)), CompletionOutcome::kLeaseLost);
  EXPECT_FALSE(store_->HeartbeatTask(task.lease, seconds(10)).ok());
  EXPECT_EQ(StateOf(job.id), JobState::kCancelled);
  EXPECT_EQ(store_->CancelJob(job.id, "again").status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(TaskQueueTest, CancelQueuedJobLeavesNothingToLease) {
  const Job job = CreateTestJob("cancel-queued");
  ASSERT_TRUE(store_->CancelJob(job.id, "").ok());
  EXPECT_TRUE(NothingToLease(Translator()));
}

TEST_F(TaskQueueTest, FinishedJobCannotBeCancelled) {
  const Job job = CreateTestJob("done");
  ASSERT_EQ(*store_->CompleteTask(Completion(MustLease(Translator()))), CompletionOutcome::kApplied);
  EXPECT_EQ(store_->CancelJob(job.id, "late").status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(StateOf(job.id), JobState::kSucceeded);
}

TEST_F(TaskQueueTest, CheckConstraintsRejectInvalidStates) {
  const Job job = CreateTestJob("check");
  EXPECT_THROW(Execute("UPDATE jobs SET state = 'exploded'"), pqxx::check_violation);
  EXPECT_THROW(Execute("UPDATE tasks SET state = 'paused'"), pqxx::check_violation);
  EXPECT_THROW(Execute("UPDATE tasks SET kind = 'compile'"), pqxx::check_violation);
  // A running task without a lease is impossible.
  EXPECT_THROW(Execute("UPDATE tasks SET state = 'running'"), pqxx::check_violation);
  EXPECT_EQ(StateOf(job.id), JobState::kQueued);
}

TEST_F(TaskQueueTest, NotifyWakesWaitingWorker) {
  // Drain the notification of nothing: start waiting, then enqueue from another thread.
  auto waiter = std::async(std::launch::async, [&] {
    const auto start = std::chrono::steady_clock::now();
    const bool woken = store_->WaitForWork(seconds(20));
    return std::make_pair(woken, std::chrono::steady_clock::now() - start);
  });
  std::this_thread::sleep_for(milliseconds(200));
  CreateTestJob("wake");
  const auto [woken, waited] = waiter.get();
  EXPECT_TRUE(woken);
  EXPECT_LT(waited, seconds(10));
  MustLease(Translator());
}

TEST_F(TaskQueueTest, WaitForWorkTimesOutWithoutWork) { EXPECT_FALSE(store_->WaitForWork(milliseconds(300))); }

TEST_F(TaskQueueTest, NotificationsDoNotCrossSchemas) {
  // A second store in another schema: its work must not wake this store's waiters.
  const std::string other_schema = FreshSchemaName();
  auto options = Options();
  options.schema = other_schema;
  auto other = OpenPostgresJobStore(options, clock_);
  ASSERT_TRUE(other.ok());
  auto waiter = std::async(std::launch::async, [&] { return store_->WaitForWork(milliseconds(1500)); });
  std::this_thread::sleep_for(milliseconds(200));
  JobSpec spec;
  spec.name = "elsewhere";
  ASSERT_TRUE((*other)->CreateJob(spec, FakeInput("elsewhere")).ok());
  EXPECT_FALSE(waiter.get());
  other->reset();
  Execute("DROP SCHEMA " + other_schema + " CASCADE");
}

TEST_F(TaskQueueTest, JobEventWakesWatcher) {
  const Job job = CreateTestJob("watch");
  auto events = store_->ListEventsSince(job.id, 0);
  ASSERT_TRUE(events.ok());
  const int64_t last = events->back().seq;
  auto waiter = std::async(std::launch::async, [&] { return store_->WaitForJobEvents(seconds(20)); });
  std::this_thread::sleep_for(milliseconds(200));
  auto seq = store_->AppendEvent(job.id, "progress", R"({"files_done":3,"files_total":10})");
  ASSERT_TRUE(seq.ok()) << seq.status();
  EXPECT_TRUE(waiter.get());
  auto newer = store_->ListEventsSince(job.id, last);
  ASSERT_TRUE(newer.ok());
  ASSERT_EQ(newer->size(), 1u);
  EXPECT_EQ((*newer)[0].seq, *seq);
  EXPECT_EQ((*newer)[0].kind, "progress");
  EXPECT_EQ((*newer)[0].payload_json, R"({"files_done": 3, "files_total": 10})");
}

TEST_F(TaskQueueTest, QueuedJobsSurviveStoreRestart) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(CreateTestJob("restart-" + std::to_string(i)).id);
  const LeasedTask running = MustLease(Translator("w1", seconds(30)));
  store_.reset();  // the server goes away

  store_ = OpenStore();  // ... and comes back on the same database
  ASSERT_NE(store_, nullptr);
  for (const auto& id : ids) EXPECT_TRUE(store_->GetJob(id).ok()) << id;
  // The running task's lease expires and is rescued; then every job can be processed to the end.
  clock_.Advance(seconds(31));
  EXPECT_EQ(*store_->RescueExpiredLeases(), 1);
  std::set<std::string> completed_jobs;
  for (;;) {
    auto leased = store_->LeaseTask(Translator("w2"));
    ASSERT_TRUE(leased.ok());
    if (!leased->has_value()) break;
    ASSERT_EQ(*store_->CompleteTask(Completion(**leased)), CompletionOutcome::kApplied);
    completed_jobs.insert((*leased)->lease.job_id);
  }
  EXPECT_EQ(completed_jobs, std::set<std::string>(ids.begin(), ids.end()));
  EXPECT_TRUE(completed_jobs.count(running.lease.job_id));
}

TEST_F(TaskQueueTest, MalformedInputsAreRejected) {
  CreateTestJob("bad");
  const LeasedTask task = MustLease(Translator());
  TaskCompletion completion = Completion(task, "{not json");
  EXPECT_EQ(store_->CompleteTask(completion).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(QueryScalar("SELECT state FROM tasks"), "running");
  EXPECT_EQ(*store_->CompleteTask(Completion(task)), CompletionOutcome::kApplied);
  EXPECT_EQ(*store_->CompleteTask(Completion(LeasedTask{.lease = {.task_id = "not-a-uuid", .token = "x"}})),
            CompletionOutcome::kLeaseLost);
}

}  // namespace
}  // namespace hipforge::server::testing
