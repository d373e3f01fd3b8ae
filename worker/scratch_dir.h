#pragma once
// Per-task scratch directories that never outlive their worker for long: each one is guarded by an
// flock on a sibling "<dir>.lock" held while the task runs. The kernel drops the lock when the
// process dies (kill -9 included), so the next worker to start on the same scratch root removes
// every directory whose lock it can take — safe when several workers share one root.
#include <filesystem>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace hipforge::worker {

class TaskScratchDir {
 public:
  // Creates `root`/`name` (and the lock). `keep`: leave the directory behind (debugging).
  static absl::StatusOr<std::unique_ptr<TaskScratchDir>> Create(const std::filesystem::path& root,
                                                                const std::string& name, bool keep);
  ~TaskScratchDir();
  TaskScratchDir(const TaskScratchDir&) = delete;
  TaskScratchDir& operator=(const TaskScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  TaskScratchDir(std::filesystem::path path, int lock_fd, bool keep)
      : path_(std::move(path)), lock_fd_(lock_fd), keep_(keep) {}
  std::filesystem::path path_;
  int lock_fd_;
  bool keep_;
};

// Removes the directories below `root` that no live process holds (left by a killed worker), and
// their lock files. Returns how many directories were removed.
int SweepAbandonedScratch(const std::filesystem::path& root);

}  // namespace hipforge::worker
