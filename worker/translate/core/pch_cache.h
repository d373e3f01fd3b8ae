#pragma once
// The translator's PCH directory as a bounded cache, and cache keys that do not depend on where it lives.
//
// Entries: a prelude PCH (<key>.pch, its source prelude-<key>.cu) or a library preamble PCH (preamble-<key>.pch,
// its source, and the .none/.seen markers beside it); each may have a .used stamp. Use is recorded in the stamp,
// never in the PCH's own mtime: Clang records an imported PCH's size and mtime in every PCH chained on it, so
// touching a prelude would make each preamble chained on it out of date.
//
// The directory is a DiskCache (common/disk_cache.h) whose entries are written by Clang (a PCH is built into a
// temporary of TemporaryBeside, then renamed); its eviction is the DiskCache's, with this layout. Several processes
// share the directory: a PCH removed under another process's parse only costs that parse a fallback (the
// translator treats a missing PCH like a stale one: IsPchProblem, RejectPreamblePch).
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/disk_cache.h"

namespace hipforge::translate {

// Where the translator's caches live. Keys name these directories by role ("<hipforge-pch>"), not by path, so
// a cache copied or mounted elsewhere (or a worker's per-task shim directory) still hits; a PCH's own content
// identity is its key, which is in its file name.
struct TranslateOptions;
// The PCH directory `options` give: pch_directory, else <cache_directory>/pch, else the user's cache
// ($XDG_CACHE_HOME or ~/.cache: hipforge/pch), else the temporary directory's hipforge-pch.
std::filesystem::path PchDirectoryFor(const TranslateOptions& options);

struct CacheLocations {
  std::filesystem::path pch;    // the PCH directory
  std::filesystem::path shims;  // CudaFrontendOptions::shim_directory

  // `arg` with each location (a whole path component prefix) replaced by its role's name.
  std::string KeyText(std::string_view arg) const;
};

constexpr uint64_t kDefaultPchCacheBytes = uint64_t{2} << 30;  // 2 GiB: ~60 library preambles and a few preludes

// "2G", "500M", "64k", "1048576" (bytes; binary units, case-insensitive); nullopt when malformed.
std::optional<uint64_t> ParseByteSize(std::string_view text);

// The cap in force: `bytes` when given (a flag, TranslateOptions::pch_cache_bytes), else $HIPFORGE_PCH_CACHE_SIZE,
// else kDefaultPchCacheBytes; InvalidArgument for a malformed environment value (docs/translator-caches.md).
absl::StatusOr<uint64_t> PchCacheCap(std::optional<uint64_t> bytes);

using PchEviction = CacheEviction;

class PchCache {
 public:
  // `cap_bytes` 0: unbounded (nothing is evicted).
  PchCache(std::filesystem::path directory, uint64_t cap_bytes, const Clock& clock);

  // While a Use lives, its PCHs' entries are not evicted by this cache (a parse, or a preamble PCH being built
  // on its prelude). Creating it stamps them used.
  class Use {
   public:
    Use(Use&& other) noexcept;
    Use& operator=(Use&&) = delete;
    ~Use();

   private:
    friend class PchCache;
    Use(const PchCache* cache, std::vector<std::string> entries);
    const PchCache* cache_;
    std::vector<std::string> entries_;
  };
  Use Pin(const std::vector<std::filesystem::path>& pchs) const;

  // Evicts least recently used entries (preamble before prelude on a tie) until the directory holds at most the
  // cap; pinned entries stay even if the cap cannot be met. Left-over temporaries of dead builds (older than an
  // hour) go too. Safe against another process evicting at the same time.
  PchEviction Enforce() const;

  // The entry a file of the directory belongs to ("<key>" or "preamble-<key>"); nullopt for a file that is not
  // the translator's (left alone) or a build's temporary.
  static std::optional<std::string> EntryOf(const std::string& file_name);

 private:
  void Stamp(const std::string& entry) const;

  DiskCache cache_;
  mutable std::mutex mutex_;
  mutable std::multiset<std::string> pinned_;
};

}  // namespace hipforge::translate
