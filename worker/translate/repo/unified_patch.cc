#include "worker/translate/repo/unified_patch.h"

#include <algorithm>
#include <random>
#include <string_view>

namespace hipforge::translate {
namespace {

// diff ends each file's `--- a/...` / `+++ b/...` header with the file's mtime; the output tree's are the time of
// writing, so two runs over the same input gave different patches. The headers keep the names only (as git's do):
// the same input and options give the same patch, byte for byte. Only a line right after a `diff ` line and the one
// after it are headers (hunk lines always start with ' ', '+', '-', '\\' or "@@"); the time holds no tab, so the
// line's last tab is the one before it.
std::string WithoutHeaderTimes(const std::string& patch) {
  std::string out;
  out.reserve(patch.size());
  int header_lines = 0;  // header lines still expected after a `diff ` line
  for (size_t at = 0; at < patch.size();) {
    const size_t end = std::min(patch.find('\n', at), patch.size());
    std::string_view line(patch.data() + at, end - at);
    if (line.rfind("diff ", 0) == 0) {
      header_lines = 2;
    } else if (header_lines > 0 && (line.rfind(header_lines == 2 ? "--- " : "+++ ", 0) == 0)) {
      if (const size_t tab = line.rfind('\t'); tab != std::string_view::npos) line = line.substr(0, tab);
      --header_lines;
    } else {
      header_lines = 0;
    }
    out.append(line);
    if (end < patch.size()) out.push_back('\n');
    at = end + 1;
  }
  return out;
}

}  // namespace

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
    return absl::InternalError("diff failed (exit " + std::to_string(result->exit_code) +
                               "): " + result->standard_error.substr(0, 2000));
  }
  if (result->output_truncated) return absl::ResourceExhaustedError("patch larger than 256 MiB");
  return WithoutHeaderTimes(result->standard_output);
}

}  // namespace hipforge::translate
