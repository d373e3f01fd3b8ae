#pragma once
// Running a role's TaskRunner so that nothing it does ends the worker: its error, or an exception it throws,
// becomes this task's failure, marked deterministic when a retry would reproduce it (the job then fails
// without using its other attempts). Used by the RunRole stage (worker/stages/run_role.cc).
#include "absl/status/statusor.h"
#include "worker/task_runner.h"

namespace hipforge::worker {

// Failures a retry would reproduce: the same input and code give the same answer, so the job fails
// now instead of after every attempt. Everything else (I/O, the server away, memory) may pass.
bool IsDeterministic(const absl::Status& status);

// Runs the role; an exception from it (a bug, or input no check foresaw) ends this task, never the
// process — with in-process workers the process is the server.
absl::StatusOr<TaskOutput> RunGuarded(TaskRunner& runner, const TaskContext& context, bool* deterministic);

}  // namespace hipforge::worker
