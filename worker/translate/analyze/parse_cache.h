#pragma once
// Content-hash cache of the analyzer's own parses: the device-side `__CUDA_ARCH__` pass and the headers no unit
// includes (the host side rides on the translator's parse and is cached with its facts). An entry is keyed by
// the file's path, bytes and full Clang arguments and the rule set (salt); it holds while every project file the
// parse entered still hashes the same. An unchanged re-run of the repository pass then parses nothing.
// Entries: a DiskCache (common/disk_cache.h), schema "analyzer-parse".
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/disk_cache.h"
#include "worker/translate/analyze/ast_runner.h"

namespace hipforge::translate::analyze {

class ParseCache {
 public:
  ParseCache(std::filesystem::path directory, std::string salt);

  std::optional<TranslationUnitResult> Lookup(const std::string& relative_path, const std::string& content,
                                              const std::vector<std::string>& args,
                                              const std::filesystem::path& root) const;
  void Store(const std::string& relative_path, const std::string& content, const std::vector<std::string>& args,
             const std::filesystem::path& root, const TranslationUnitResult& result) const;

 private:
  std::string Key(const std::string& relative_path, const std::string& content,
                  const std::vector<std::string>& args) const;
  DiskCache cache_;
  std::string salt_;
};

}  // namespace hipforge::translate::analyze
