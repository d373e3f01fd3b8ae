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
  return IsSourceKind(kind);  // common/source_files.h
}

}  // namespace hipforge::translate
