#include "worker/translate/core/translation_cache.h"

#include "common/sha256.h"

namespace hipforge::translate {

TranslationCache::TranslationCache(const std::filesystem::path& directory, std::string salt)
    : cache_(directory / "facts", {.fan_out = true}), salt_(std::move(salt)) {}

std::string TranslationCache::Key(const std::string& relative_path, const std::string& content,
                                  const std::string& args) const {
  return CacheKey("translation-facts", 1)
      .Add("salt", salt_)
      .Add("path", relative_path)
      .Add("args", args)
      .Add("content-sha256", Sha256Hex(content))
      .Hex();
}

std::optional<UnitFacts> TranslationCache::Lookup(const std::string& relative_path, const std::string& content,
                                                  const std::string& args, const std::filesystem::path& root) const {
  const std::optional<std::string> entry = cache_.Read(Key(relative_path, content, args), ".json");
  if (!entry) return std::nullopt;
  try {
    UnitFacts facts = UnitFactsFromJson(nlohmann::json::parse(*entry));
    if (!FilesUnchanged(root, facts.dependencies, relative_path)) return std::nullopt;  // a project header changed
    return facts;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // not facts this build can read: parse again
  }
}

void TranslationCache::Store(const std::string& relative_path, const std::string& content, const std::string& args,
                             const UnitFacts& facts) const {
  // Best effort: a read-only cache directory only costs the next run its parse.
  (void)cache_.Write(Key(relative_path, content, args), ".json", ToJson(facts).dump());
}

}  // namespace hipforge::translate
