// A stage of Worker::Execute (worker.cc runs the list; worker/task_state.h holds what the stages share).
#include "worker/run_guarded.h"
#include "worker/task_state.h"
#include "worker/worker.h"

namespace hipforge::worker {
namespace fs = std::filesystem;

Worker::StageEnd Worker::RunRole(TaskState& state) {
  if (state.execution.given_back()) return TaskOutcome::kGivenBack;
  TaskContext context{.job_id = state.task.lease().job_id(),
                      .task_id = state.task.lease().task_id(),
                      .spec = state.task.spec(),
                      .input_root = state.input_root,
                      .original_root = state.original_root,
                      .managed_memory_found = state.task.managed_memory_found(),
                      .work_dir = state.scratch->path() / "work",
                      .progress = state.execution,
                      .abandon = state.execution.abandon()};
  bool deterministic = false;
  state.output = RunGuarded(*state.runner, context, &deterministic);
  state.execution.Flush();
  if (state.execution.given_back()) {
    spdlog::info("{} runner ended after the task was given back; result dropped", state.tag);
    return TaskOutcome::kGivenBack;
  }
  if (state.execution.cancelled()) {
    spdlog::info("{} stopped: the job was cancelled ({})", state.tag,
                 state.output.ok() ? "runner finished anyway" : state.output.status().ToString());
    return TaskOutcome::kCancelled;
  }
  if (state.execution.lease_lost()) {
    spdlog::warn("{} lease lost while running; result dropped", state.tag);
    return TaskOutcome::kLeaseLost;
  }
  if (!state.output.ok()) return Fail(state, state.output.status(), deterministic);
  return std::nullopt;
}

}  // namespace hipforge::worker
