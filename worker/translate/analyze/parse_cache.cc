#include "worker/translate/analyze/parse_cache.h"

#include <fstream>
#include <unistd.h>

#include "common/file_io.h"
#include "common/sha256.h"

namespace hipforge::translate::analyze {

ParseCache::ParseCache(std::filesystem::path directory, std::string salt)
    : directory_(std::move(directory)), salt_(std::move(salt)) {}

std::filesystem::path ParseCache::EntryPath(const std::string& relative_path, const std::string& content,
                                            const std::vector<std::string>& args) const {
  std::string key = salt_ + '\0' + relative_path + '\0';
  for (const std::string& arg : args) key += arg + '\0';
  key = Sha256Hex(key + '\0' + Sha256Hex(content));
  return directory_ / key.substr(0, 2) / (key + ".json");
}

std::optional<TranslationUnitResult> ParseCache::Lookup(const std::string& relative_path, const std::string& content,
                                                        const std::vector<std::string>& args,
                                                        const std::filesystem::path& root) const {
  std::ifstream in(EntryPath(relative_path, content, args));
  if (!in) return std::nullopt;
  try {
    const nlohmann::json entry = nlohmann::json::parse(in);
    for (const auto& [path, hash] : entry.at("dependencies").items()) {
      const auto current = Sha256HexOfFile(root / path);
      if (!current.ok() || *current != hash.get<std::string>()) return std::nullopt;  // a project file changed
    }
    return TranslationUnitResultFromJson(entry.at("result"));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // corrupt or from an older layout: parse again
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
  const auto path = EntryPath(relative_path, content, args);
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) return;  // the cache is an optimisation; a read-only cache directory is not an error
  (void)WriteFileAtomically(path, nlohmann::json{{"dependencies", dependencies}, {"result", ToJson(result)}}.dump());
}

}  // namespace hipforge::translate::analyze
