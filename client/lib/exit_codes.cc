#include "client/lib/exit_codes.h"

namespace hipforge::client {

ExitCode ExitCodeForStatus(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk: return kExitOk;
    case absl::StatusCode::kUnavailable: return kExitServerUnreachable;
    case absl::StatusCode::kDeadlineExceeded: return kExitTimeout;
    case absl::StatusCode::kNotFound: return kExitNotFound;
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kPermissionDenied: return kExitUnauthorized;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kAlreadyExists: return kExitInputRejected;
    default: return kExitInternal;
  }
}

}  // namespace hipforge::client
