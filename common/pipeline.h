#pragma once
// The one shape of a pipeline (docs/architecture.md, "From Submit to report: the stages"): a named list of stages
// over one state, run in order. The repository pass, validation, the worker's task and the analyzer each are one.
//
// A stage answers an Outcome: absl::Status (OK goes on, an error ends the run with it) or std::optional<Value>
// (nullopt goes on, a value ends the run with it, early or last). Between stages the run asks its stop check (a
// cancelled job, an abandoned task), and after each its `finished` predicate (the rest has nothing to do: an early
// successful end). Each stage's wall time is kept. An error a stage ends the run with carries the stage's name as a
// payload (FailedStage): the message is unchanged, Status::ToString (logs) shows it. Where pipelines nest (the
// analyzer's inside the repository pass's AnalyzeSources) the innermost stage's name is kept.
//
// What a stage makes for later stages is a StageOutput<T> in the state: filled by its stage, read through an
// accessor that names the stage when it did not run, so a reader of the state sees which stage made what.
#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/cord.h"
#include "absl/strings/string_view.h"
#include "spdlog/spdlog.h"

namespace hipforge {

// The payload key of the stage an error came from.
inline constexpr absl::string_view kFailedStagePayload = "hipforge.dev/pipeline-stage";

// The stage an error came from ("" when it came from none: not a pipeline's, or its stop check's).
inline std::string FailedStage(const absl::Status& status) {
  const auto stage = status.GetPayload(kFailedStagePayload);  // absl::optional: not std::optional here
  return stage ? std::string(*stage) : std::string();
}

namespace pipeline_internal {

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsStatusOr : std::false_type {};
template <typename T>
struct IsStatusOr<absl::StatusOr<T>> : std::true_type {};

inline void NameError(absl::Status& status, std::string_view stage) {
  if (!status.ok() && !status.GetPayload(kFailedStagePayload)) {
    status.SetPayload(kFailedStagePayload, absl::Cord(absl::string_view(stage.data(), stage.size())));
  }
}

// Names the error an ending outcome carries, if it carries one.
template <typename Outcome>
void NameOutcome(Outcome& outcome, std::string_view stage) {
  if constexpr (std::is_same_v<Outcome, absl::Status>) {
    NameError(outcome, stage);
  } else if constexpr (IsStatusOr<Outcome>::value) {
    if (!outcome.ok()) {
      absl::Status status = outcome.status();
      NameError(status, stage);
      outcome = std::move(status);
    }
  } else if constexpr (IsOptional<Outcome>::value) {
    if (outcome) NameOutcome(*outcome, stage);
  }
}

}  // namespace pipeline_internal

// Whether a stage's outcome lets the run go on.
inline bool GoesOn(const absl::Status& outcome) { return outcome.ok(); }
template <typename Value>
bool GoesOn(const std::optional<Value>& outcome) {
  return !outcome.has_value();
}

struct StageTime {
  std::string_view stage;
  std::chrono::steady_clock::duration wall;
};

template <typename State, typename Outcome = absl::Status>
class Pipeline {
  static_assert(std::is_same_v<Outcome, absl::Status> || pipeline_internal::IsOptional<Outcome>::value,
                "a stage answers absl::Status or std::optional<Value>");

 public:
  using Stage = std::function<Outcome(State&)>;
  struct NamedStage {
    std::string_view name;
    Stage run;
  };
  struct Options {
    // Asked before each stage and once after the last (or after an early end): an outcome that does not go on
    // ends the run with it (Cancelled for a cancelled job). Empty: never stops.
    std::function<Outcome(const State&)> stop;
    // Asked after each stage: true ends the run successfully there. Empty: every stage runs.
    std::function<bool(const State&)> finished;
  };

  // `name` prefixes the timing log lines ("repository pass").
  Pipeline(std::string name, std::vector<NamedStage> stages, Options options = {})
      : name_(std::move(name)), stages_(std::move(stages)), options_(std::move(options)) {}

  // Runs the stages in order; what ended the run (the go-on outcome when nothing did). `times`, when given,
  // receives each stage's wall time, in order, the ending one included.
  Outcome Run(State& state, std::vector<StageTime>* times = nullptr) const {
    std::vector<StageTime> kept;
    Outcome outcome = RunStages(state, kept);
    for (const StageTime& time : kept) {
      spdlog::debug("[{}] {} took {} ms", name_, time.stage,
                    std::chrono::duration_cast<std::chrono::milliseconds>(time.wall).count());
    }
    if (times != nullptr) *times = std::move(kept);
    return outcome;
  }

  const std::vector<NamedStage>& stages() const { return stages_; }

 private:
  Outcome Stop(const State& state) const { return options_.stop ? options_.stop(state) : Outcome(); }

  Outcome RunStages(State& state, std::vector<StageTime>& times) const {
    for (const NamedStage& stage : stages_) {
      if (Outcome stop = Stop(state); !GoesOn(stop)) return stop;
      const auto start = std::chrono::steady_clock::now();
      Outcome outcome = stage.run(state);
      times.push_back({stage.name, std::chrono::steady_clock::now() - start});
      if (!GoesOn(outcome)) {
        pipeline_internal::NameOutcome(outcome, stage.name);
        return outcome;
      }
      if (options_.finished && options_.finished(state)) break;
    }
    return Stop(state);
  }

  std::string name_;
  std::vector<NamedStage> stages_;
  Options options_;
};

// What one stage makes for the later ones: empty until `stage` fills it (emplace); reading it before then is a
// std::logic_error that names the stage (a stage list out of order, a test that skipped a stage's part).
template <typename T>
class StageOutput {
 public:
  explicit StageOutput(std::string_view stage) : stage_(stage) {}

  template <typename... Args>
  T& emplace(Args&&... args) {
    return value_.emplace(std::forward<Args>(args)...);
  }
  bool has_value() const { return value_.has_value(); }
  std::string_view stage() const { return stage_; }

  T& operator*() {
    Checked();
    return *value_;
  }
  const T& operator*() const {
    Checked();
    return *value_;
  }
  T* operator->() { return &**this; }
  const T* operator->() const { return &**this; }

 private:
  void Checked() const {
    if (!value_) {
      throw std::logic_error("pipeline: " + std::string(stage_) + "'s output read before " + std::string(stage_) +
                             " ran");
    }
  }

  std::string_view stage_;
  std::optional<T> value_;
};

}  // namespace hipforge
