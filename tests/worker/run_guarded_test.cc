// The RunRole stage's guard (worker/run_guarded.h) without a server: a runner's error or exception becomes the
// task's failure, deterministic exactly when a retry would reproduce it.
#include "worker/run_guarded.h"

#include <gtest/gtest.h>

#include <functional>
#include <new>
#include <stdexcept>
#include <system_error>

namespace hipforge::worker {
namespace {

class FunctionRunner final : public TaskRunner {
 public:
  explicit FunctionRunner(std::function<absl::StatusOr<TaskOutput>()> run) : run_(std::move(run)) {}
  absl::StatusOr<TaskOutput> Run(const TaskContext&) override { return run_(); }

 private:
  std::function<absl::StatusOr<TaskOutput>()> run_;
};

class SilentProgress final : public ProgressReporter {
 public:
  void FileDone(std::string_view, int, int, std::string_view) override {}
  void Step(std::string_view, std::string_view, std::string_view, std::string_view) override {}
  void Log(std::string_view, std::string_view) override {}
};

struct Outcome {
  absl::StatusOr<TaskOutput> output;
  bool deterministic;
};

Outcome Guard(std::function<absl::StatusOr<TaskOutput>()> run) {
  FunctionRunner runner(std::move(run));
  SilentProgress progress;
  std::atomic<bool> abandon{false};
  const v1::JobSpec spec;
  const TaskContext context{.job_id = "j", .task_id = "t", .spec = spec, .progress = progress, .abandon = abandon};
  bool deterministic = true;  // RunGuarded must set it either way
  absl::StatusOr<TaskOutput> output = RunGuarded(runner, context, &deterministic);
  return {std::move(output), deterministic};
}

TEST(RunGuardedTest, AnOutputPassesThrough) {
  Outcome outcome = Guard([] { return TaskOutput{.summary = "done"}; });
  ASSERT_TRUE(outcome.output.ok());
  EXPECT_EQ(outcome.output->summary, "done");
  EXPECT_FALSE(outcome.deterministic);
}

TEST(RunGuardedTest, ARunnerErrorIsDeterministicByItsCode) {
  Outcome refused = Guard([] { return absl::InvalidArgumentError("no CUDA here"); });
  EXPECT_EQ(refused.output.status().message(), "no CUDA here");
  EXPECT_TRUE(refused.deterministic);
  Outcome transient = Guard([] { return absl::UnavailableError("server away"); });
  EXPECT_EQ(transient.output.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_FALSE(transient.deterministic);
}

TEST(RunGuardedTest, ExceptionsBecomeTheTasksFailure) {
  Outcome thrown = Guard([]() -> absl::StatusOr<TaskOutput> { throw std::runtime_error("bad input"); });
  EXPECT_EQ(thrown.output.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(thrown.output.status().message(), "the task failed with an exception: bad input");
  EXPECT_TRUE(thrown.deterministic) << "the same input throws again";

  Outcome memory = Guard([]() -> absl::StatusOr<TaskOutput> { throw std::bad_alloc(); });
  EXPECT_EQ(memory.output.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE(memory.deterministic) << "memory may be there next time";

  Outcome system = Guard([]() -> absl::StatusOr<TaskOutput> {
    throw std::system_error(std::make_error_code(std::errc::no_space_on_device), "write");
  });
  EXPECT_EQ(system.output.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(system.output.status().message().find("system error in the task: write"), std::string::npos);
  EXPECT_FALSE(system.deterministic);

  Outcome unknown = Guard([]() -> absl::StatusOr<TaskOutput> { throw 42; });
  EXPECT_EQ(unknown.output.status().message(), "the task failed with an unknown exception");
  EXPECT_TRUE(unknown.deterministic);
}

TEST(RunGuardedTest, DeterministicCodes) {
  for (absl::StatusCode code :
       {absl::StatusCode::kInvalidArgument, absl::StatusCode::kFailedPrecondition, absl::StatusCode::kOutOfRange,
        absl::StatusCode::kNotFound, absl::StatusCode::kAlreadyExists, absl::StatusCode::kPermissionDenied,
        absl::StatusCode::kUnimplemented}) {
    EXPECT_TRUE(IsDeterministic(absl::Status(code, "x"))) << absl::StatusCodeToString(code);
  }
  for (absl::StatusCode code :
       {absl::StatusCode::kInternal, absl::StatusCode::kUnavailable, absl::StatusCode::kResourceExhausted,
        absl::StatusCode::kDeadlineExceeded, absl::StatusCode::kDataLoss, absl::StatusCode::kCancelled}) {
    EXPECT_FALSE(IsDeterministic(absl::Status(code, "x"))) << absl::StatusCodeToString(code);
  }
}

}  // namespace
}  // namespace hipforge::worker
