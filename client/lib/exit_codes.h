#pragma once
// migrate-cli's exit codes, stable so CI can gate on them (documented in docs/cli.md).
#include "absl/status/status.h"

namespace hipforge::client {

enum ExitCode : int {
  kExitOk = 0,
  kExitUsage = 1,              // bad arguments or options
  kExitServerUnreachable = 2,  // could not reach the server (or it went away)
  kExitJobFailed = 3,          // the job ended FAILED
  kExitFindings = 4,           // findings at or above --fail-on
  kExitJobCancelled = 5,       // the job ended CANCELLED
  kExitNotFound = 6,           // unknown job, artifact or report
  kExitInputRejected = 7,      // the input was refused (bad/empty repository, unsafe archive, over limits)
  kExitTimeout = 8,            // --wait-timeout/--timeout ran out before the job finished
  kExitInternal = 9,           // anything else (server error, local I/O error, feature not built in)
  kExitNotProved = 10,         // --require: the job's verdict is below the level asked for
  kExitUnauthorized = 11,      // no/invalid/expired/revoked token (UNAUTHENTICATED) or scope/team refused
};

// The exit code a failed operation maps to.
ExitCode ExitCodeForStatus(const absl::Status& status);

}  // namespace hipforge::client
