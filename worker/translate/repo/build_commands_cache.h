#pragma once
// The build-command discovery of an unchanged tree is not run again (issue 15: an unchanged re-run with --cache
// cost 65% of a cold one, most of it configuring the project's CMake under the sandbox again). The key is what a
// configure step can see: every path in the tree, the bytes of every file that is not a C/C++/CUDA source or
// header (build files, scripts, configure_file inputs, version files), the CMake options and the CUDA toolkit
// (its version.json). A configure step that reads a source file's contents (rare) is not re-run when only
// that content changes. Only successful discoveries are kept; a failed one runs again next time.
// Entries: a DiskCache (common/disk_cache.h), schema "build-discovery".
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "common/disk_cache.h"
#include "worker/translate/repo/build_commands.h"
#include "worker/translate/repo/migration_types.h"

namespace hipforge::translate {

std::string BuildDiscoveryKey(const std::map<std::string, std::string>& contents,
                              const std::map<std::string, RepoFileKind>& kinds, const BuildDiscoveryOptions& options);

class BuildDiscoveryCache {
 public:
  explicit BuildDiscoveryCache(std::filesystem::path directory) : cache_(std::move(directory)) {}

  // A stored discovery for `key`, its compile_commands.json written to `scratch`; nullopt when there is none
  // (or the cache is disabled: empty directory).
  std::optional<BuildDiscovery> Lookup(const std::string& key, const std::filesystem::path& scratch) const;
  void Store(const std::string& key, const BuildDiscovery& discovery) const;

 private:
  DiskCache cache_;
};

}  // namespace hipforge::translate
