#include "worker/translate/repo/unified_patch.h"

#include <random>

namespace hipforge::translate {

absl::StatusOr<std::string> MakeUnifiedPatch(ProcessLauncher& launcher, const std::filesystem::path& input_root,
                                             const std::filesystem::path& output_root) {
  // diff names files by the paths it was given: a directory with links `a` and `b` gives a/... and b/... names.
  std::mt19937_64 rng{std::random_device{}()};
  const auto work = std::filesystem::temp_directory_path() / ("hipforge-patch-" + std::to_string(rng()));
  std::error_code error;
  std::filesystem::create_directories(work, error);
  if (error) return absl::InternalError("cannot create " + work.string() + ": " + error.message());
  struct Cleanup {
    std::filesystem::path path;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{work};
  std::filesystem::create_directory_symlink(std::filesystem::absolute(input_root), work / "a", error);
  if (!error) std::filesystem::create_directory_symlink(std::filesystem::absolute(output_root), work / "b", error);
  if (error) return absl::InternalError("cannot link trees for diff: " + error.message());

  ProcessSpec spec;
  spec.argv = {"diff", "-ruN", "--exclude=.git", "a", "b"};
  spec.working_directory = work;
  spec.environment = {{"LC_ALL", "C"}};
  spec.max_output_bytes = size_t{256} << 20;
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  if (!result.ok()) return result.status();
  // diff: 0 = same, 1 = differences, 2 = trouble.
  if (result->exit_code != 0 && result->exit_code != 1) {
    return absl::InternalError("diff failed (exit " + std::to_string(result->exit_code) + "): " +
                               result->standard_error.substr(0, 2000));
  }
  if (result->output_truncated) return absl::ResourceExhaustedError("patch larger than 256 MiB");
  return result->standard_output;
}

}  // namespace hipforge::translate
