#include "common/pipeline.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hipforge {
namespace {

struct Trace {
  std::vector<std::string> ran;
  bool cancelled = false;
  bool done = false;
};

Pipeline<Trace>::NamedStage Step(std::string_view name, absl::Status answer = absl::OkStatus()) {
  return {name, [name, answer](Trace& trace) {
            trace.ran.emplace_back(name);
            return answer;
          }};
}

TEST(PipelineTest, RunsTheStagesInOrderAndKeepsEachOnesWallTime) {
  const Pipeline<Trace> pipeline("test", {Step("A"), Step("B"), Step("C")});
  Trace trace;
  std::vector<StageTime> times;
  EXPECT_TRUE(pipeline.Run(trace, &times).ok());
  EXPECT_EQ(trace.ran, (std::vector<std::string>{"A", "B", "C"}));
  ASSERT_EQ(times.size(), 3u);
  EXPECT_EQ(times[0].stage, "A");
  EXPECT_EQ(times[2].stage, "C");
  for (const StageTime& time : times) EXPECT_GE(time.wall.count(), 0);
}

TEST(PipelineTest, AFailingStageEndsTheRunWithItsErrorNamingTheStage) {
  const Pipeline<Trace> pipeline("test", {Step("A"), Step("B", absl::NotFoundError("no input")), Step("C")});
  Trace trace;
  std::vector<StageTime> times;
  const absl::Status status = pipeline.Run(trace, &times);
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "no input") << "the message is the stage's own";
  EXPECT_EQ(FailedStage(status), "B");
  EXPECT_NE(status.ToString().find("B"), std::string::npos) << status.ToString();
  EXPECT_EQ(trace.ran, (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(times.size(), 2u) << "the failing stage's time is kept too";
  EXPECT_EQ(FailedStage(absl::NotFoundError("elsewhere")), "");
}

TEST(PipelineTest, WherePipelinesNestTheInnermostStageIsNamed) {
  const Pipeline<Trace> inner("inner", {Step("ReadFiles", absl::NotFoundError("cannot read a.cu"))});
  const Pipeline<Trace> outer("outer",
                              {Step("A"), {"AnalyzeSources", [&inner](Trace& trace) { return inner.Run(trace); }}});
  Trace trace;
  const absl::Status status = outer.Run(trace);
  EXPECT_EQ(FailedStage(status), "ReadFiles");
  EXPECT_EQ(status.message(), "cannot read a.cu");
}

TEST(PipelineTest, TheStopCheckRunsBeforeEachStageAndAfterTheLast) {
  Pipeline<Trace>::Options options;
  options.stop = [](const Trace& trace) {
    return trace.cancelled ? absl::CancelledError("stopped") : absl::OkStatus();
  };
  const Pipeline<Trace> pipeline("test",
                                 {Step("A"),
                                  {"B",
                                   [](Trace& trace) {
                                     trace.ran.emplace_back("B");
                                     trace.cancelled = true;
                                     return absl::OkStatus();
                                   }},
                                  Step("C")},
                                 options);
  Trace trace;
  const absl::Status stopped = pipeline.Run(trace);
  EXPECT_EQ(stopped.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(FailedStage(stopped), "") << "a stop is no stage's error";
  EXPECT_EQ(trace.ran, (std::vector<std::string>{"A", "B"}));

  // Cancelled while the last stage ran: the run still ends Cancelled.
  const Pipeline<Trace> last("test",
                             {Step("A"),
                              {"B",
                               [](Trace& trace) {
                                 trace.cancelled = true;
                                 return absl::OkStatus();
                               }}},
                             options);
  Trace late;
  EXPECT_EQ(last.Run(late).code(), absl::StatusCode::kCancelled);
}

TEST(PipelineTest, FinishedEndsTheRunSuccessfullyBeforeTheRest) {
  Pipeline<Trace>::Options options;
  options.finished = [](const Trace& trace) { return trace.done; };
  const Pipeline<Trace> pipeline("test",
                                 {Step("A"),
                                  {"B",
                                   [](Trace& trace) {
                                     trace.ran.emplace_back("B");
                                     trace.done = true;
                                     return absl::OkStatus();
                                   }},
                                  Step("C")},
                                 options);
  Trace trace;
  EXPECT_TRUE(pipeline.Run(trace).ok());
  EXPECT_EQ(trace.ran, (std::vector<std::string>{"A", "B"}));
}

TEST(PipelineTest, AStageThatAnswersAValueEndsTheRunWithIt) {
  using End = std::optional<absl::StatusOr<int>>;
  auto stage = [](std::string_view name, End answer) {
    return Pipeline<Trace, End>::NamedStage{name, [name, answer](Trace& trace) {
                                              trace.ran.emplace_back(name);
                                              return answer;
                                            }};
  };
  Trace trace;
  const Pipeline<Trace, End> early("test", {stage("A", std::nullopt), stage("B", 7), stage("C", 8)});
  const End ended = early.Run(trace);
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(**ended, 7);
  EXPECT_EQ(trace.ran, (std::vector<std::string>{"A", "B"}));

  const Pipeline<Trace, End> through("test", {stage("A", std::nullopt)});
  EXPECT_FALSE(through.Run(trace).has_value()) << "no stage ended the run";

  const Pipeline<Trace, End> failing("test", {stage("A", absl::StatusOr<int>(absl::UnavailableError("down")))});
  const End failed = failing.Run(trace);
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->status().message(), "down");
  EXPECT_EQ(FailedStage(failed->status()), "A");
}

TEST(StageOutputTest, ReadingBeforeItsStageRanIsAnErrorNamingTheStage) {
  StageOutput<std::vector<int>> files("CollectFiles");
  EXPECT_FALSE(files.has_value());
  try {
    (void)files->size();
    FAIL() << "read before CollectFiles ran";
  } catch (const std::logic_error& error) {
    EXPECT_EQ(std::string(error.what()), "pipeline: CollectFiles's output read before CollectFiles ran");
  }
  files.emplace(std::vector<int>{1, 2});
  EXPECT_EQ(files->size(), 2u);
  EXPECT_EQ((*files)[1], 2);
  EXPECT_EQ(files.stage(), "CollectFiles");
}

}  // namespace
}  // namespace hipforge
