#include "worker/run_guarded.h"

#include <new>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"

namespace hipforge::worker {

bool IsDeterministic(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnimplemented: return true;
    default: return false;
  }
}

absl::StatusOr<TaskOutput> RunGuarded(TaskRunner& runner, const TaskContext& context, bool* deterministic) {
  *deterministic = false;
  try {
    absl::StatusOr<TaskOutput> output = runner.Run(context);
    if (!output.ok()) *deterministic = IsDeterministic(output.status());
    return output;
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("the task ran out of memory");
  } catch (const std::system_error& error) {
    return absl::InternalError(absl::StrCat("system error in the task: ", EscapeForMessage(error.what())));
  } catch (const std::exception& error) {
    *deterministic = true;  // the same input throws again
    return absl::InternalError(absl::StrCat("the task failed with an exception: ", EscapeForMessage(error.what())));
  } catch (...) {
    *deterministic = true;
    return absl::InternalError("the task failed with an unknown exception");
  }
}

}  // namespace hipforge::worker
