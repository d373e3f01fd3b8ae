#pragma once
// A fresh directory of the tests' own under the system temp dir ("hipforge-<tag>-<pid>-<random>"), removed with
// everything in it by the destructor (kept when HIPFORGE_KEEP_TEST_DIRS is set, to look at after a failure).
// Unique per process and object, so test binaries run side by side (ctest -j, two worktrees) never share one.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

namespace hipforge::testing {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("hipforge-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (std::getenv("HIPFORGE_KEEP_TEST_DIRS") == nullptr) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace hipforge::testing
