// A stage of Worker::Execute (worker.cc runs the list; worker/task_state.h holds what the stages share).
#include <random>

#include "worker/task_state.h"
#include "worker/worker.h"

namespace hipforge::worker {
namespace fs = std::filesystem;

namespace {

std::string RandomSuffix() {
  std::random_device device;
  return absl::StrCat(absl::Hex(device()), absl::Hex(device()));
}

}  // namespace

Worker::StageEnd Worker::PrepareScratch(TaskState& state) {
  auto runner = runners_.find(state.task.role());
  if (runner == runners_.end()) {
    // Another worker may serve the role: not this task's fault.
    return Fail(
        state,
        absl::UnimplementedError(absl::StrCat("worker has no runner for ", v1::TaskRole_Name(state.task.role()))),
        /*permanent=*/false);
  }
  state.runner = runner->second;
  absl::StatusOr<std::unique_ptr<TaskScratchDir>> scratch = TaskScratchDir::Create(
      options_.scratch_root, absl::StrCat(state.task.lease().task_id(), "-", RandomSuffix()), options_.keep_scratch);
  if (!scratch.ok()) return Fail(state, scratch.status(), /*permanent=*/false);
  state.scratch = *std::move(scratch);
  std::error_code ec;
  fs::create_directories(state.scratch->path() / "work", ec);
  if (ec) return Fail(state, absl::InternalError(absl::StrCat("cannot create the work dir: ", ec.message())), false);
  state.input_root = state.scratch->path() / "input";
  // The validator maps build errors back to the CUDA sources and reads reference outputs from them.
  if (state.task.role() == v1::TASK_ROLE_VALIDATE) state.original_root = state.scratch->path() / "original";
  return std::nullopt;
}

}  // namespace hipforge::worker
