#include "server/store/data_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hipforge::server {
namespace fs = std::filesystem;

absl::StatusOr<fs::path> OpenPrivateDataDir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create data dir ", dir.string(), ": ", ec.message()));
  const fs::path absolute = fs::absolute(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("data dir ", dir.string(), ": ", ec.message()));
  struct stat info {};
  if (::stat(absolute.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat("data dir ", absolute.string(), " is not a directory"));
  }
  const mode_t wanted = ::geteuid() == 0 ? 0711 : 0700;
  const mode_t exposed = info.st_mode & 066;  // read or write for group or others
  if (exposed == 0 || fs::is_empty(absolute, ec)) {
    if (::chmod(absolute.c_str(), wanted) != 0) {
      return absl::InternalError(absl::StrCat("cannot make data dir ", absolute.string(), " private"));
    }
    return absolute;
  }
  char mode[8], want[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
  std::snprintf(want, sizeof want, "%o", static_cast<unsigned>(wanted));
  return absl::FailedPreconditionError(
      absl::StrCat("data dir ", absolute.string(), " can be read or written by other users (mode ", mode,
                   "); it holds every team's code. Run: chmod ", want, " ", absolute.string()));
}

}  // namespace hipforge::server
