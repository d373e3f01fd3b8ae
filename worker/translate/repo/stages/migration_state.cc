#include "worker/translate/repo/stages/migration_state.h"

#include <fstream>
#include <random>

namespace hipforge::translate {
namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory() {
  std::mt19937_64 rng{std::random_device{}()};
  path_ = fs::temp_directory_path() / ("hipforge-build-" + std::to_string(rng()));
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

bool IsTranslatableKind(RepoFileKind kind) {
  return kind == RepoFileKind::kCudaSource || kind == RepoFileKind::kHeader || kind == RepoFileKind::kCppSource;
}

absl::Status WriteFile(const fs::path& path, const std::string& content) {
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) return absl::InternalError("cannot write " + path.string());
  return absl::OkStatus();
}

}  // namespace hipforge::translate
