#pragma once
// Per-file cache of build-file rewrites, keyed by a content hash, so a resubmitted repository reuses the
// results of unchanged files. (CUDA sources use the translator's own cache: TranslateOptions::cache_directory.)
// Entries: a DiskCache (common/disk_cache.h), schema "build-file-rewrite": <key>.out (the output, raw) and
// <key>.json (the rest, naming it; written last, evicted first).
#include <filesystem>
#include <optional>
#include <string>

#include "common/disk_cache.h"
#include "worker/translate/repo/build_file_rewriter.h"

namespace hipforge::translate {

class RewriteCache {
 public:
  // Disabled when `directory` is empty.
  explicit RewriteCache(std::filesystem::path directory) : cache_(std::move(directory), {.primary_suffix = ".json"}) {}

  // The key: the rewriter's name and version, the context fingerprint, the file's path and content.
  static std::string Key(const std::string& rewriter_name, int rewriter_version, const std::string& fingerprint,
                         const std::string& relative_path, const std::string& content);

  std::optional<RewriteResult> Lookup(const std::string& key) const;
  void Store(const std::string& key, const RewriteResult& result) const;  // best effort

 private:
  DiskCache cache_;
};

}  // namespace hipforge::translate
