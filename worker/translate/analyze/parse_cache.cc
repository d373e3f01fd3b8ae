#include "worker/translate/analyze/parse_cache.h"

#include <nlohmann/json.hpp>

#include "common/sha256.h"

namespace hipforge::translate::analyze {

ParseCache::ParseCache(std::filesystem::path directory, std::string salt)
    : cache_(std::move(directory), {.fan_out = true}), salt_(std::move(salt)) {}

std::string ParseCache::Key(const std::string& relative_path, const std::string& content,
                            const std::vector<std::string>& args) const {
  CacheKey key("analyzer-parse", 1);
  key.Add("salt", salt_).Add("path", relative_path);
  for (const std::string& arg : args) key.Add("arg", arg);
  return key.Add("content-sha256", Sha256Hex(content)).Hex();
}

std::optional<TranslationUnitResult> ParseCache::Lookup(const std::string& relative_path, const std::string& content,
                                                        const std::vector<std::string>& args,
                                                        const std::filesystem::path& root) const {
  const std::optional<std::string> text = cache_.Read(Key(relative_path, content, args), ".json");
  if (!text) return std::nullopt;
  try {
    const nlohmann::json entry = nlohmann::json::parse(*text);
    if (!FilesUnchanged(root, entry.at("dependencies").get<std::map<std::string, std::string>>())) {
      return std::nullopt;  // a project file changed
    }
    return TranslationUnitResultFromJson(entry.at("result"));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // not an entry this build can read: parse again
  }
}

void ParseCache::Store(const std::string& relative_path, const std::string& content,
                       const std::vector<std::string>& args, const std::filesystem::path& root,
                       const TranslationUnitResult& result) const {
  nlohmann::json dependencies = nlohmann::json::object();
  for (const std::string& path : result.covered_files) {
    const auto hash = Sha256HexOfFile(root / path);
    if (!hash.ok()) return;  // cannot tell later whether it changed: not stored
    dependencies[path] = *hash;
  }
  // Best effort: a read-only cache directory only costs the next run its parse.
  (void)cache_.Write(Key(relative_path, content, args), ".json",
                     nlohmann::json{{"dependencies", dependencies}, {"result", ToJson(result)}}.dump());
}

}  // namespace hipforge::translate::analyze
