#pragma once
// The server's data directory holds every team's uploads, translated trees and the embedded cluster,
// so no other local account may read it (docs/security.md, "Local accounts").
#include <filesystem>

#include "absl/status/statusor.h"

namespace hipforge::server {

// Creates `dir` if missing, made private: 0700, or 0711 when running as root (the unprivileged user
// that runs the embedded PostgreSQL must pass through to <dir>/pg; it can list nothing). An empty
// directory is made private the same way. A directory that already holds data and lets group or
// others read or write it is refused (FailedPrecondition, naming the chmod): the server does not
// silently change who can see data that was already exposed. Returns the absolute path.
absl::StatusOr<std::filesystem::path> OpenPrivateDataDir(const std::filesystem::path& dir);

}  // namespace hipforge::server
