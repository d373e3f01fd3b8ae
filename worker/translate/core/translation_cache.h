#pragma once
// Content-hash cache of parse facts: a unit whose bytes, Clang arguments, translator options and tool version
// are unchanged — and whose project headers still hash the same — is not parsed again. The lexer pass and
// the edit composition (milliseconds) always run, so cached and fresh outputs are identical by construction.
#include <filesystem>
#include <optional>
#include <string>

#include "common/disk_cache.h"
#include "worker/translate/core/translation_facts.h"

namespace hipforge::translate {

class TranslationCache {
 public:
  // `directory`: the cache directory (entries under its facts/). `salt`: everything else that changes the facts
  // (options, tool version).
  TranslationCache(const std::filesystem::path& directory, std::string salt);

  std::optional<UnitFacts> Lookup(const std::string& relative_path, const std::string& content, const std::string& args,
                                  const std::filesystem::path& root) const;
  void Store(const std::string& relative_path, const std::string& content, const std::string& args,
             const UnitFacts& facts) const;

 private:
  std::string Key(const std::string& relative_path, const std::string& content, const std::string& args) const;
  DiskCache cache_;
  std::string salt_;
};

}  // namespace hipforge::translate
