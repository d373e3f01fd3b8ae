#include "worker/translate/repo/build_commands_cache.h"

#include <fstream>

#include "common/file_io.h"
#include "common/sha256.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

std::string BuildDiscoveryKey(const std::map<std::string, std::string>& contents,
                              const std::map<std::string, RepoFileKind>& kinds, const BuildDiscoveryOptions& options) {
  CacheKey key("build-discovery", 2);
  key.Add("cuda-path", options.cuda_path.string())
      .Add("cuda-version.json", ReadFileBytes(options.cuda_path / "version.json").value_or(""));
  for (const auto& option : options.cmake_options) key.Add("cmake-option", option);
  for (const auto& [path, content] : contents) {
    const auto kind = kinds.find(path);
    const bool source = kind != kinds.end() && IsSourceKind(kind->second);
    key.Add("path", path).Add("content-sha256", source ? std::string("source") : Sha256Hex(content));
  }
  return key.Hex();
}

std::optional<BuildDiscovery> BuildDiscoveryCache::Lookup(const std::string& key, const fs::path& scratch) const {
  const std::optional<std::string> text = cache_.Read(key, ".json");
  if (!text) return std::nullopt;
  const nlohmann::json entry = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!entry.is_object() || !entry.contains("commands") || !entry["commands"].is_array()) return std::nullopt;
  std::error_code error;
  fs::create_directories(scratch, error);
  const fs::path out = scratch / "compile_commands.json";
  std::ofstream(out) << entry["commands"].dump(1);
  if (error || !fs::exists(out)) return std::nullopt;
  BuildDiscovery discovery;
  discovery.compile_commands = out;
  discovery.tool = entry.value("tool", "");
  for (const auto& note : entry.value("notes", nlohmann::json::array()))
    discovery.notes.push_back(note.get<std::string>());
  discovery.notes.push_back("build commands from the cache (tree and build files unchanged since `" + discovery.tool +
                            "` ran)");
  return discovery;
}

void BuildDiscoveryCache::Store(const std::string& key, const BuildDiscovery& discovery) const {
  if (!cache_.enabled() || !discovery.compile_commands) return;
  const auto commands = ReadFileBytes(*discovery.compile_commands);
  if (!commands) return;
  nlohmann::json parsed = nlohmann::json::parse(*commands, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_array()) return;
  const nlohmann::json entry = {{"tool", discovery.tool}, {"notes", discovery.notes}, {"commands", std::move(parsed)}};
  // Best effort: a read-only cache directory only costs the next run its discovery.
  (void)cache_.Write(key, ".json", entry.dump());
}

}  // namespace hipforge::translate
