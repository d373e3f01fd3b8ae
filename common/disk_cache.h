#pragma once
// The one shape of hipforge's disk caches (docs/translator-caches.md): the translator's unit facts, the analyzer's
// parses, the PCHs, the build-file rewrites and the build-command discoveries are each a DiskCache directory.
//
// - Keys: CacheKey, SHA-256 over a schema name and version and named, length-prefixed inputs. A new schema version
//   is a new key space: older entries are never read, and age out.
// - Entries: one or more files "<key><suffix>" (under a two-hex subdirectory when fanned out). Written through
//   WriteFileAtomically (a temporary of this process and thread, then rename) with a checked header, so a reader
//   in another process never sees half an entry, and a damaged one reads as a miss (and is removed).
// - Size cap: least recently used entries (the newest mtime among their files; a hit renews it) are evicted past
//   the cap, an entry's files together. Several processes may share a directory: eviction tolerates files
//   vanishing under it, and a temporary older than an hour (its writer is gone) is removed.
// tests/common/disk_cache_test.cc.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "common/clock.h"

namespace hipforge {

class CacheKey {
 public:
  // `schema`: what the entry holds ("translation-facts"); bump `version` when its layout or meaning changes.
  CacheKey(std::string_view schema, int version);
  // One named input (names may repeat: a list is several Adds). Length-prefixed: no two different input lists
  // concatenate to the same bytes.
  CacheKey& Add(std::string_view name, std::string_view value);
  // Lower-case hex SHA-256 (64 characters).
  std::string Hex() const;

 private:
  std::string material_;
};

constexpr uint64_t kDefaultDiskCacheBytes = uint64_t{1} << 30;  // per cache directory; entries are KBs

// How the files of a cache directory make entries (eviction takes an entry's files together).
struct CacheLayout {
  // The entry a file name belongs to; nullopt: not the cache's (left alone). Default: a hex key (16+ digits)
  // before the first '.'.
  std::optional<std::string> (*entry_of)(std::string_view file_name) = nullptr;
  // Among entries of equal last use, the lower rank is evicted first. Default: all 0.
  int (*tie_rank)(std::string_view entry) = nullptr;
  // The file an entry is found by: removed first (and written last by its users), so an entry never looks usable
  // without its other files. Empty: any order.
  std::string primary_suffix;
  // Entries under "<first two hex digits of the key>/" (directories with thousands of entries); else flat.
  bool fan_out = false;
};

struct CacheEviction {
  uint64_t bytes_before = 0;
  uint64_t bytes_after = 0;
  size_t entries_evicted = 0;
};

class DiskCache {
 public:
  // `cap_bytes` 0: unbounded. An empty `directory`: disabled (every Read misses, every Write does nothing).
  DiskCache(std::filesystem::path directory, uint64_t cap_bytes, CacheLayout layout, const Clock& clock);
  DiskCache(std::filesystem::path directory, CacheLayout layout = {})
      : DiskCache(std::move(directory), kDefaultDiskCacheBytes, std::move(layout), DefaultClock()) {}

  const std::filesystem::path& directory() const { return directory_; }
  bool enabled() const { return !directory_.empty(); }
  std::filesystem::path PathOf(std::string_view key, std::string_view suffix) const;

  // The bytes written for `key`/`suffix`; nullopt when absent or damaged (then removed). A hit renews the
  // entry's last use.
  std::optional<std::string> Read(std::string_view key, std::string_view suffix) const;
  // Best effort: a read-only or full cache directory only costs the next run time. Past the cap, evicts.
  absl::Status Write(std::string_view key, std::string_view suffix, std::string_view bytes) const;

  // Evicts least recently used entries until the directory holds at most the cap; entries `pinned` says are in
  // use stay even if the cap cannot be met. Removes temporaries left by dead writers (older than an hour).
  CacheEviction Enforce(const std::function<bool(const std::string& entry)>& pinned = {}) const;

  // Marks `file` (an entry's, or a stamp beside it) used now.
  void Touch(const std::filesystem::path& file) const;

  static const Clock& DefaultClock();

 private:
  std::optional<std::string> EntryOf(std::string_view file_name) const;
  CacheEviction EnforceLocked(const std::function<bool(const std::string& entry)>& pinned) const;

  std::filesystem::path directory_;
  uint64_t cap_bytes_;
  CacheLayout layout_;
  const Clock& clock_;
  mutable std::mutex mutex_;
  mutable std::optional<uint64_t> known_bytes_;  // the directory's size as last counted plus what this wrote since
};

// True while every file `hashes` names (relative to `root`) still has that SHA-256, `except` not checked (its bytes
// are in the key): an entry that depends on more files than its key names (a unit's project headers) holds only
// then.
bool FilesUnchanged(const std::filesystem::path& root, const std::map<std::string, std::string>& hashes,
                    std::string_view except = {});

}  // namespace hipforge
