#pragma once
// Which files of a parse are the project's: under the root (after resolving symlinks) and not system headers
// (the toolkit, the standard library). Clang-side; shared by the one-parse driver and its consumers.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "clang/Basic/SourceManager.h"

namespace hipforge::translate {

class ProjectPaths {
 public:
  explicit ProjectPaths(std::filesystem::path root) : root_(std::move(root)) {}

  // Root-relative path of `id` when it is a project file; nullopt otherwise. Cached per FileID.
  const std::optional<std::string>& RelativePath(const clang::SourceManager& sm, clang::FileID id) {
    if (auto it = cache_.find(id); it != cache_.end()) return it->second;
    std::optional<std::string> relative;
    if (const clang::FileEntry* entry = sm.getFileEntryForID(id);
        entry && !sm.isInSystemHeader(sm.getLocForStartOfFile(id))) {
      std::error_code error;
      const llvm::StringRef name = entry->tryGetRealPathName().empty() ? entry->getName() : entry->tryGetRealPathName();
      const auto rel = std::filesystem::weakly_canonical(std::string(name), error).lexically_relative(root_);
      if (!error && !rel.empty() && *rel.begin() != "..") relative = rel.generic_string();
    }
    return cache_[id] = std::move(relative);
  }

  // Whether `location` is spelled (after macro expansion) in a project file.
  bool Contains(const clang::SourceManager& sm, clang::SourceLocation location) {
    const clang::SourceLocation loc = sm.getExpansionLoc(location);
    return loc.isValid() && RelativePath(sm, sm.getFileID(loc)).has_value();
  }

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
  std::map<clang::FileID, std::optional<std::string>> cache_;
};

}  // namespace hipforge::translate
