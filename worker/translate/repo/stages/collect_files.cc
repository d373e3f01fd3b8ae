#include "worker/translate/repo/stages/collect_files.h"

#include "common/file_io.h"
#include "worker/translate/repo/file_classifier.h"

namespace hipforge::translate {
namespace fs = std::filesystem;
namespace {

std::string RelativeOf(const fs::path& path, const fs::path& root) {
  return path.lexically_relative(root).generic_string();
}

}  // namespace

absl::Status CollectFiles(MigrationState& state, const MigrationTools&) {
  const fs::path& input = state.trees->input;
  CollectedFiles& files = state.files.emplace();
  std::error_code walk_error;
  for (auto it = fs::recursive_directory_iterator(input, fs::directory_options::skip_permission_denied, walk_error);
       it != fs::recursive_directory_iterator(); it.increment(walk_error)) {
    if (walk_error) return absl::InternalError("walking " + input.string() + ": " + walk_error.message());
    const std::string relative = RelativeOf(it->path(), input);
    if (it->is_directory() && it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink()) {
      files.symlinks.push_back(relative);
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    absl::StatusOr<std::string> content = ReadFileOrStatus(it->path());
    if (!content.ok()) return content.status();
    files.kinds[relative] = ClassifyFile(relative, *content);
    files.contents[relative] = std::move(*content);
  }
  PromoteIncludedHeaders(files.contents, files.kinds);
  state.Report("classify", static_cast<int>(files.contents.size()), static_cast<int>(files.contents.size()), "");
  return absl::OkStatus();
}

}  // namespace hipforge::translate
