#include "worker/translate/frontend/confined_file_system.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace hipforge::translate {
namespace {

class ConfinedFileSystem : public llvm::vfs::ProxyFileSystem {
 public:
  ConfinedFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base, const std::vector<std::string>& roots)
      : ProxyFileSystem(std::move(base)) {
    for (const std::string& root : roots) {
      AddRoot(root);
      llvm::SmallString<256> real;
      if (!llvm::sys::fs::real_path(root, real)) AddRoot(std::string(real.str()));
    }
  }

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override {
    const Access access = Check(path);
    if (access == Access::kDenied) return std::make_error_code(std::errc::no_such_file_or_directory);
    auto result = ProxyFileSystem::status(path);
    // A directory on the way to a root may be seen (the driver walks down to /usr/include), never a file.
    if (access == Access::kAncestor && result && !result->isDirectory()) {
      return std::make_error_code(std::errc::no_such_file_or_directory);
    }
    return result;
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    if (Check(path) != Access::kInside) return std::make_error_code(std::errc::no_such_file_or_directory);
    return ProxyFileSystem::openFileForRead(path);
  }

  llvm::vfs::directory_iterator dir_begin(const llvm::Twine& dir, std::error_code& error) override {
    if (Check(dir) != Access::kInside) {
      error = std::make_error_code(std::errc::no_such_file_or_directory);
      return {};
    }
    return ProxyFileSystem::dir_begin(dir, error);
  }

 private:
  enum class Access { kInside, kAncestor, kDenied };

  void AddRoot(std::string root) {
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    roots_.push_back(std::move(root));
  }

  static bool Within(llvm::StringRef path, llvm::StringRef root) {
    return path == root || (path.startswith(root) && (root == "/" || path[root.size()] == '/'));
  }

  Access Classify(llvm::StringRef path) const {
    for (const std::string& root : roots_) {
      if (Within(path, root)) return Access::kInside;
    }
    for (const std::string& root : roots_) {
      if (Within(root, path)) return Access::kAncestor;
    }
    return Access::kDenied;
  }

  Access Check(const llvm::Twine& path) const {
    llvm::SmallString<256> absolute;
    path.toVector(absolute);
    if (!llvm::sys::path::is_absolute(absolute)) {
      auto cwd = getCurrentWorkingDirectory();
      if (!cwd) return Access::kDenied;
      llvm::SmallString<256> joined(*cwd);
      llvm::sys::path::append(joined, absolute);
      absolute = joined;
    }
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    const Access lexical = Classify(absolute);
    if (lexical != Access::kInside) return lexical;
    // Inside by name; a symlink may still point out of the roots.
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(absolute, real)) return Access::kInside;  // does not exist: harmless
    return Classify(real) == Access::kInside ? Access::kInside : Access::kDenied;
  }

  std::vector<std::string> roots_;
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> MakeParseFileSystem(const std::vector<std::string>& readable_roots) {
  auto physical = llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(llvm::vfs::createPhysicalFileSystem().release());
  if (readable_roots.empty()) return physical;
  return llvm::makeIntrusiveRefCnt<ConfinedFileSystem>(std::move(physical), readable_roots);
}

}  // namespace hipforge::translate
