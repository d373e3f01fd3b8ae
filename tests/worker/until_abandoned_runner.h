#pragma once
// A TaskRunner that works until told to abandon (TaskContext::abandon), as a long build would between its steps,
// then returns `answer`. The worker tests (real server and stage tests) stop it by cancel, lease loss or give-back.
#include <atomic>
#include <chrono>
#include <thread>

#include "worker/task_runner.h"

namespace hipforge::worker {

class UntilAbandonedRunner final : public TaskRunner {
 public:
  std::atomic<bool> started{false};
  std::atomic<bool> saw_abandon{false};
  // What Run returns once abandoned; a result here (the runner "finished anyway") must be dropped by the worker.
  absl::StatusOr<TaskOutput> answer = absl::CancelledError("stopped: abandoned");

  absl::StatusOr<TaskOutput> Run(const TaskContext& context) override {
    started = true;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!context.abandon.load()) {
      if (std::chrono::steady_clock::now() > deadline) return absl::DeadlineExceededError("never told to stop");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    saw_abandon = true;
    return answer;
  }
};

}  // namespace hipforge::worker
