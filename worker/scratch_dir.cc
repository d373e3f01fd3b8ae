#include "worker/scratch_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"

namespace hipforge::worker {
namespace {

namespace fs = std::filesystem;
constexpr std::string_view kLockSuffix = ".lock";

fs::path LockPathOf(const fs::path& dir) { return fs::path(dir.string() + std::string(kLockSuffix)); }

// Opens (creating) and locks `lock_path`; -1 when another process holds it or it cannot be opened.
int TryLock(const fs::path& lock_path, bool wait) {
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TaskScratchDir>> TaskScratchDir::Create(const fs::path& root, const std::string& name,
                                                                       bool keep) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", root.string(), ": ", ec.message()));
  const fs::path path = root / name;
  // Lock first, then create: a sweeper that sees the directory always finds its lock taken.
  const int fd = TryLock(LockPathOf(path), /*wait=*/true);
  if (fd < 0) return absl::InternalError(absl::StrCat("cannot lock ", LockPathOf(path).string()));
  fs::create_directories(path, ec);
  if (ec) {
    ::close(fd);
    return absl::InternalError(absl::StrCat("cannot create ", path.string(), ": ", ec.message()));
  }
  return std::unique_ptr<TaskScratchDir>(new TaskScratchDir(path, fd, keep));
}

TaskScratchDir::~TaskScratchDir() {
  std::error_code ignored;
  if (!keep_) {
    fs::remove_all(path_, ignored);
    fs::remove(LockPathOf(path_), ignored);
  }
  ::close(lock_fd_);
}

int SweepAbandonedScratch(const fs::path& root) {
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path dir = it->path();
    // Lock files are removed with their directory; a lone one (a worker died between locking and
    // creating) is left alone, since taking it could race with a task being created.
    if (dir.filename().string().ends_with(kLockSuffix)) continue;
    const int fd = TryLock(LockPathOf(dir), /*wait=*/false);
    if (fd < 0) continue;  // a live task owns it
    spdlog::info("scratch: removing {} (left by a worker that stopped)", dir.string());
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    fs::remove(LockPathOf(dir), ignored);
    ::close(fd);
    ++removed;
  }
  return removed;
}

}  // namespace hipforge::worker
