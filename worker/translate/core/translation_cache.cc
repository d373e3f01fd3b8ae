#include "worker/translate/core/translation_cache.h"

#include <fstream>
#include <sstream>

#include "common/file_io.h"
#include "common/sha256.h"

namespace hipforge::translate {

TranslationCache::TranslationCache(std::filesystem::path directory, std::string salt)
    : directory_(std::move(directory)), salt_(std::move(salt)) {}

std::filesystem::path TranslationCache::EntryPath(const std::string& relative_path, const std::string& content,
                                                  const std::string& args) const {
  const std::string key = Sha256Hex(salt_ + '\0' + relative_path + '\0' + args + '\0' + Sha256Hex(content));
  return directory_ / "facts" / key.substr(0, 2) / (key + ".json");
}

std::optional<UnitFacts> TranslationCache::Lookup(const std::string& relative_path, const std::string& content,
                                                  const std::string& args, const std::filesystem::path& root) const {
  std::ifstream in(EntryPath(relative_path, content, args));
  if (!in) return std::nullopt;
  try {
    UnitFacts facts = UnitFactsFromJson(nlohmann::json::parse(in));
    for (const auto& [path, hash] : facts.dependencies) {
      if (path == relative_path) continue;
      const auto current = Sha256HexOfFile(root / path);
      if (!current.ok() || *current != hash) return std::nullopt;  // a project header changed
    }
    return facts;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // corrupt or from an older layout: parse again
  }
}

void TranslationCache::Store(const std::string& relative_path, const std::string& content, const std::string& args,
                             const UnitFacts& facts) const {
  const auto path = EntryPath(relative_path, content, args);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) return;  // the cache is an optimisation; a read-only cache directory is not an error
  (void)WriteFileAtomically(path, ToJson(facts).dump());  // a unique temporary per process and thread, then rename
}

}  // namespace hipforge::translate
